/**
 * Word lists the demo data is built from; the seed picks from them deterministically.
 * Names are letters only (plus the apostrophe of O'Brien) and start with a capital, so
 * sorting by name agrees across SQLite, PostgreSQL and MariaDB collations.
 */
export const FIRST_NAMES = [
  'Ada', 'Grace', 'Alan', 'Katherine', 'Edsger', 'Barbara', 'Donald', 'Margaret', 'Dennis', 'Frances',
  'Ken', 'Radia', 'John', 'Hedy', 'Tim', 'Annie', 'Linus', 'Jean', 'Guido', 'Sophie',
  'Bjarne', 'Mary', 'James', 'Adele', 'Niklaus', 'Carol', 'Yukihiro', 'Lynn', 'Brian', 'Shafi',
];

export const LAST_NAMES = [
  'Lovelace', 'Hopper', 'Turing', 'Johnson', 'Dijkstra', 'Liskov', 'Knuth', 'Hamilton', 'Ritchie', 'Allen',
  'Thompson', 'Perlman', 'McCarthy', 'Lamarr', 'Nygaard', 'Easley', 'Torvalds', 'Bartik', 'Dahl', 'Wilson',
  'Stroustrup', 'Keller', 'Gosling', 'Goldberg', 'Wirth', 'Shaw', 'Matsumoto', 'Conway', 'Kernighan', "O'Brien",
];

export const DEPARTMENTS = ['Engineering', 'Design', 'Finance', 'Marketing', 'Operations', 'People', 'Research', 'Sales'];

export const TEAM_SUFFIXES = ['Platform', 'Growth', 'Core'];

export const TITLES = [
  'Engineer', 'Senior Engineer', 'Staff Engineer', 'Designer', 'Analyst', 'Manager', 'Director',
  'Accountant', 'Recruiter', 'Researcher', 'Account Executive', 'Support Specialist',
];

export const NOTE_BODIES = [
  'Joined the mentoring programme.', 'Prefers async communication.', 'Quarterly review done.',
  'Owns the on-call rota.', 'Moved desks to the third floor.', 'Runs the reading group.',
];

export const TASK_TITLES = {
  bugs: ['Login fails on Safari', 'Report totals off by one', 'Timezone drift in exports', 'Crash on empty search'],
  features: ['Dark mode', 'CSV export', 'Single sign-on', 'Bulk edit'],
  epics: ['Billing rewrite', 'Mobile app', 'Data warehouse', 'Accessibility audit'],
} as const;

export const MILESTONES = ['Design approved', 'Beta', 'General availability'];

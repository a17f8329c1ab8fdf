/**
 * What a query plan or a serializer's layout was built from, besides the
 * request and the declarations: the answers of the model-less guards asked
 * while it was built. Recording them lets a later request reuse the result
 * once every one of those guards, asked again for that request, answers the
 * same; a guard that answers otherwise (another user, another role) means a
 * fresh build, so a reused result can never carry one user's permissions to
 * another.
 */
type GuardFunction = (...args: unknown[]) => unknown;
type Receiver = new () => object;

export interface GuardAnswer {
  readonly fn: GuardFunction;
  /** The Resource the guard was asked on: a fresh instance of it asks again (guards read `this.context`). */
  readonly receiver: Receiver;
  readonly answer: boolean;
}

/** The answers a build depended on; undefined when it cannot be asked again (a guard took a model, or answered twice differently). */
export type GuardAnswers = readonly GuardAnswer[] | undefined;

interface Recording {
  answers: GuardAnswer[];
  replayable: boolean;
}

// builds are synchronous, so one recording at a time (nested ones fold into their outer one)
let recording: Recording | undefined;

/** Runs `build`, recording every guard it asks. */
export function recordingGuards<T>(build: () => T): { value: T; answers: GuardAnswers } {
  const outer = recording;
  const current: Recording = { answers: [], replayable: true };
  recording = current;
  let value: T;
  try {
    value = build();
  } finally {
    recording = outer;
    if (outer) noteAnswers(current.replayable ? current.answers : undefined);
  }
  return { value, answers: current.replayable ? distinct(current.answers) : undefined };
}

/** Called by every guard that runs a function: what it answered, for the recording under way. */
export function noteGuard(fn: GuardFunction, receiver: object, arity: number, answer: boolean): void {
  if (recording === undefined) return;
  const constructor = (receiver as { constructor?: unknown }).constructor;
  if (arity > 0 || typeof constructor !== 'function') recording.replayable = false;
  else recording.answers.push({ fn, receiver: constructor as Receiver, answer });
}

/** A reused result's answers count for the recording under way, as if its build had run there. */
function noteAnswers(answers: GuardAnswers): void {
  if (recording === undefined) return;
  if (answers === undefined) recording.replayable = false;
  else recording.answers.push(...answers);
}

/**
 * Whether a remembered result may serve this request: every guard it
 * recorded still answers the same, asked now. Its answers then count for
 * the recording under way, as if it had been built here.
 */
export function stillAnswered(answers: readonly GuardAnswer[]): boolean {
  if (!answersHold(answers)) return false;
  noteAnswers(answers);
  return true;
}

/** Whether every guard still answers as recorded, asked now (for the current request's context). */
function answersHold(answers: readonly GuardAnswer[]): boolean {
  let receivers: Map<Receiver, object> | undefined;
  for (const { fn, receiver, answer } of answers) {
    receivers ??= new Map();
    let instance = receivers.get(receiver);
    if (!instance) receivers.set(receiver, (instance = new receiver()));
    if (Boolean(fn.apply(instance, [])) !== answer) return false;
  }
  return true;
}

/** One answer per guard and Resource; a guard that answered both ways within one build makes it unrepeatable. */
function distinct(answers: readonly GuardAnswer[]): GuardAnswers {
  const seen = new Map<GuardFunction, GuardAnswer[]>();
  const result: GuardAnswer[] = [];
  for (const entry of answers) {
    const same = seen.get(entry.fn)?.find((other) => other.receiver === entry.receiver);
    if (same) {
      if (same.answer !== entry.answer) return undefined;
      continue;
    }
    seen.set(entry.fn, [...(seen.get(entry.fn) ?? []), entry]);
    result.push(entry);
  }
  return result;
}

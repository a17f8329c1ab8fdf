import type { Models } from '../db/models/index.ts';
import { NOTABLE_TYPES } from '../db/models/note.ts';
import type { ApplicationResource } from './application-resource.ts';

export function noteResource(models: Models, Base: typeof ApplicationResource) {
  return class NoteResource extends Base {
    static {
      this.model = models.Note;
      this.type = 'notes';
      this.description = 'A remark about an employee, a team or a department. Admins only.';
      // the notes endpoint and every relationship leading here, for every action: like employees' `notes`
      this.guard('isAdmin');
      this.attribute('body', 'string');
      this.attribute('notable_type', 'string_enum', { allow: NOTABLE_TYPES, only: ['filterable', 'writable'] });
      this.attribute('notable_id', 'integer_id', { only: ['filterable', 'writable'] });
      this.polymorphicBelongsTo('notable', { groupBy: 'notable_type' }, (on) => {
        on('employees');
        on('teams');
        on('departments');
      });
    }
  };
}

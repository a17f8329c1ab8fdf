import { BadRequestError } from '../errors/index.ts';

interface LocalRecord {
  readonly type: string;
  /** Set once the `add` that declared it has run. */
  id?: string;
}

/**
 * The `lid`s of one operations document. Declarations and references are
 * checked before anything runs (a `lid` is declared once, by an `add`, and
 * referred to only after it, with the same type), so a bad reference is a
 * 400 that never opens a transaction; the ids arrive as the `add`s run.
 */
export class LocalIds {
  private readonly records = new Map<string, LocalRecord>();

  declare(lid: unknown, type: string, pointer: string): string {
    const name = lidName(lid, pointer);
    if (this.records.has(name)) throw bad('duplicate_lid', `lid "${name}" is already given to a record an earlier operation adds`, pointer);
    this.records.set(name, { type });
    return name;
  }

  /** A reference to `lid`, whose resource identifier or `ref` says `type`. */
  check(lid: unknown, type: unknown, pointer: string, typePointer: string): string {
    const name = lidName(lid, pointer);
    const record = this.records.get(name);
    if (!record) throw bad('unknown_lid', `No earlier operation adds a record with lid "${name}"`, pointer);
    if (typeof type === 'string' && type !== record.type) {
      throw bad('lid_type_mismatch', `lid "${name}" is a record of ${record.type}, not ${type}`, typePointer);
    }
    return name;
  }

  assign(lid: string, id: string): void {
    this.records.get(lid)!.id = id;
  }

  /** The id of the record `lid` names: operations run in order, so its `add` has run. */
  resolve(lid: string): string {
    const id = this.records.get(lid)?.id;
    if (id === undefined) throw new Error(`lid "${lid}" was used before its add ran`);
    return id;
  }
}

function lidName(lid: unknown, pointer: string): string {
  if (typeof lid !== 'string' || lid === '') throw bad('invalid_lid', 'A lid must be a non-empty string', pointer);
  return lid;
}

function bad(code: string, detail: string, pointer: string): BadRequestError {
  return new BadRequestError(code, detail, { pointer });
}

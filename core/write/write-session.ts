import { equalityClause, type Adapter } from '../adapter/adapter.ts';
import { IdTaken, RecordNotFound, UnwritableError, ValidationFailed, type RecordLocation, type ValidationIssue } from '../errors/index.ts';
import type { ResourceBase } from '../resource/resource-base.ts';
import { versionAttributeOf } from '../conditional/version.ts';
import { checkForeignKeys } from './check-foreign-keys.ts';
import { assertRuleAdmits } from '../rules/rule-checks.ts';
import { ruledScope } from '../rules/rule-scope.ts';
import { modelValue } from '../resource/model-value.ts';
import type { RuleAction } from '../resource/row-rule.ts';
import { checkPrecondition } from './check-precondition.ts';
import { LinkedVersions } from './linked-versions.ts';
import { placedIssue } from './issue-placement.ts';
import { attributeWritable } from './writable.ts';
import type { WriteNode } from './write-node.ts';

/**
 * The state of one write inside its transaction: a Resource instance per
 * record, the problems found so far, and the records processed (for
 * `beforeCommit`). Loading happens before anything is saved, so refused
 * guards and missing records stop the write before it changes anything.
 */
export class WriteSession {
  readonly issues: Array<{ location: RecordLocation; issue: ValidationIssue }> = [];
  readonly processed: WriteNode[] = [];
  /** The other side of the links the write changes, whose versions move at its end. */
  readonly linked = new LinkedVersions();
  private readonly instances = new Map<WriteNode, ResourceBase>();

  constructor(readonly transaction: unknown) {}

  resourceFor(node: WriteNode): ResourceBase {
    let instance = this.instances.get(node);
    if (!instance) this.instances.set(node, (instance = new node.resource()));
    return instance;
  }

  adapterFor(node: WriteNode): Adapter {
    return this.resourceFor(node).adapter;
  }

  /** Finds or builds every record of the graph and checks model-dependent writable guards. */
  async loadModels(node: WriteNode, seen = new Set<WriteNode>(), linked = false): Promise<void> {
    if (seen.has(node)) return;
    seen.add(node);
    const resource = this.resourceFor(node);
    if (node.clientId && !node.model) await this.assertIdFree(node);
    node.model ??= node.action === 'create' ? await resource.build(resource.resourceClass.model) : await this.findExisting(node);
    if (node.action !== 'create') await this.assertRulesAdmit(node, linked);
    if (node.action !== 'create') checkPrecondition(node, node.model);
    for (const name of node.guardedAttributes) {
      if (!attributeWritable(resource, name, node.model)) {
        throw new UnwritableError('attribute', name, node.resource.type, `${node.location.pointer ?? ''}/attributes/${name}`);
      }
    }
    await checkForeignKeys(node, node.model);
    // an existing record named in a relationship is linked into it
    for (const relationship of node.relationships) for (const item of relationship.items) await this.loadModels(item, seen, item.action === 'update');
  }

  /**
   * A versioned record, or one the write is conditional on, is locked as it
   * is read (in the same query): a concurrent write to it waits for this one,
   * then reads the version this one leaves, so two writes conditional on the
   * same version cannot both pass, and unconditional ones never trip over
   * the adapter's own optimistic lock.
   */
  private async findExisting(node: WriteNode): Promise<object> {
    const resource = this.resourceFor(node);
    const adapter = resource.adapter;
    // a record the caller may not read is missing to it, as on a read
    const filtered = adapter.filter(ruledScope(resource, resource.baseScope(), 'read', node.trashed), equalityClause('id', [node.key ?? node.id], 'integer_id'));
    const lock = adapter.lockForUpdate && (node.precondition !== undefined || versionAttributeOf(node.resource) !== undefined);
    const scope = lock ? adapter.lockForUpdate!(filtered) : filtered;
    const [model] = (await resource.resolve(scope)) as object[];
    if (!model) throw new RecordNotFound(node.resource.type, node.id, { pointer: node.location.pointer ?? node.location.identifier });
    return model;
  }

  /**
   * A record the write touches must meet the rules of what the write does to
   * it (a 403 for one the caller may read but not change), and a record it
   * links, the related Resource's `link` rules.
   */
  private async assertRulesAdmit(node: WriteNode, linked: boolean): Promise<void> {
    const key = node.key ?? node.id;
    const pointer = node.location.pointer ?? node.location.identifier ?? null;
    const action = ruleActionOf(node);
    if (action === 'update' || action === 'destroy') await assertRuleAdmits(node.resource, key, action, pointer);
    if (linked) await assertRuleAdmits(node.resource, key, 'link', pointer);
  }

  /**
   * After the graph is saved, inside its transaction: every record created
   * or updated must still be one the caller may read and may create or
   * update. A write moving a record out of what the rules allow (into
   * another tenant) is refused, and the transaction rolled back.
   */
  async assertWrittenAdmitted(): Promise<void> {
    for (const node of this.processed) {
      const action = ruleActionOf(node);
      if (action === 'destroy' || !node.model) continue;
      await assertRuleAdmits(node.resource, modelValue(node.model, 'id'), action, node.location.pointer ?? node.location.identifier ?? null, { withRead: true, trashed: node.trashed && 'with' });
    }
  }

  /**
   * A client-generated id already taken is a 409 before anything is saved.
   * Looked up by primary key in the whole table, not the base scope: the
   * key is unique across it, whatever a scope hides.
   */
  private async assertIdFree(node: WriteNode): Promise<void> {
    const adapter = this.adapterFor(node);
    const existing = await adapter.find(node.resource.model, node.key, this.transaction);
    if (existing) throw new IdTaken(node.resource.type, node.id!, { pointer: node.clientId!.pointer });
  }

  addProblems(node: WriteNode, problems: ReadonlyArray<ValidationIssue>): void {
    // a concurrent create took the id between the look-up and the insert: the primary key says so, still a 409
    if (node.clientId && problems.some((problem) => problem.code === 'taken' && problem.attribute === 'id')) {
      throw new IdTaken(node.resource.type, node.id!, { pointer: node.clientId.pointer });
    }
    for (const issue of problems) this.issues.push({ location: node.location, issue: placedIssue(node.resource, issue) });
  }

  throwIfInvalid(): void {
    if (this.issues.length > 0) throw new ValidationFailed(this.issues);
  }
}

/**
 * The rule a record's part in a write answers to. A record only named in a
 * relationship (an identifier without an included entry) is linked, not
 * changed: its `link` rules, not its `update` ones, even where linking moves
 * its foreign key. A record taken out of a relationship is updated.
 */
function ruleActionOf(node: WriteNode): Exclude<RuleAction, 'read'> {
  if (node.action === 'create' || node.action === 'destroy') return node.action;
  if (node.action === 'update' && node.location.pointer === null && node.location.identifier !== undefined) return 'link';
  return 'update';
}

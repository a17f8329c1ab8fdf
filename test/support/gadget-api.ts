import { Resource } from '../../core/index.ts';

/**
 * A small API exercising everything the OpenAPI description says: an
 * attribute of every built-in type, guarded and hidden attributes, an extra
 * attribute, filters with allow/deny/single/required/dependent and custom
 * operators, a one-way sort, custom stats, every relationship kind, a
 * polymorphic parent with its children, a Resource-level guard, and an
 * endpoint limited to some actions. No models: the description needs none.
 * A factory, so each test file gets classes of its own.
 */
export function gadgetApi() {
  class Base extends Resource {
    static {
      this.abstractClass = true;
      this.endpointNamespace = '/api';
    }
    isAdmin() {
      return this.context?.role === 'admin';
    }
  }
  class MakerResource extends Base {
    static {
      this.type = 'makers';
      this.primaryEndpoint('/makers', ['index', 'show']);
      this.attribute('name', 'string');
      this.hasMany('gadgets', { resource: () => GadgetResource });
      this.manyToMany('partners', { resource: () => MakerResource, foreignKey: { maker_partners: 'maker_id' } });
    }
  }
  class GadgetResource extends Base {
    static {
      this.type = 'gadgets';
      this.description = 'A thing with an attribute of every type.';
      this.maxPageSize = 50;
      this.defaultPageSize = 10;
      this.maxIncludeDepth = 2;
      this.attribute('name', 'string', { description: 'What it is called.' });
      this.attribute('count', 'integer');
      this.attribute('code', 'uuid');
      this.attribute('kind', 'string_enum', { allow: ['small', 'large'] });
      this.attribute('level', 'integer_enum', { allow: [1, 2, 3] });
      this.attribute('price', 'big_decimal', { readable: 'isAdmin', writable: 'isAdmin' });
      this.attribute('weight', 'float');
      this.attribute('active', 'boolean');
      this.attribute('released_on', 'date');
      this.attribute('seen_at', 'datetime', { writable: false });
      this.attribute('specs', 'hash');
      this.attribute('parts', 'array');
      this.attribute('tags', 'array_of_strings');
      this.attribute('sizes', 'array_of_integers');
      this.attribute('maker_id', 'integer_id', { only: ['filterable', 'writable'] });
      this.attribute('secret', 'string', { schema: false });
      this.extraAttribute('score', 'integer');
      this.filter('name', { only: ['eq', 'prefix'], deny: ['nobody'], allowNil: true });
      this.filter('maker_id', { required: true });
      this.filter('code', { dependent: ['maker_id'] });
      this.filter('weight', { guard: 'isAdmin' });
      this.filter('search', 'string', { single: true }, { near: (scope: unknown) => scope });
      this.sort('count', { only: 'desc' });
      this.stat({ count: ['sum', 'maximum'] });
      this.stat('weight', { median: () => 1 });
      this.belongsTo('maker', { resource: () => MakerResource });
      this.hasOne('favourite_shape', { resource: () => ShapeResource, writable: false });
      this.hasMany('shapes', { resource: () => ShapeResource, readable: 'isAdmin', writable: 'isAdmin' });
      this.polymorphicHasMany('labels', { resource: () => LabelResource, as: 'labelled' });
      this.guard('isAdmin', { only: ['destroy'] });
    }
  }
  class LabelResource extends Base {
    static {
      this.type = 'labels';
      this.primaryEndpoint('/labels', ['index', 'show']);
      this.attribute('text', 'string');
      this.polymorphicBelongsTo('labelled', {}, (on) => {
        on('gadgets', { resource: () => GadgetResource });
        on('makers', { resource: () => MakerResource });
      });
    }
  }
  class ShapeResource extends Base {
    static {
      this.type = 'shapes';
      this.polymorphic = [() => CircleResource, () => SquareResource];
      this.attribute('gadget_id', 'integer_id', { only: ['filterable', 'writable'] });
      this.belongsTo('gadget', { resource: () => GadgetResource });
    }
  }
  class CircleResource extends ShapeResource {
    static {
      this.type = 'circles';
      this.attribute('radius', 'float');
    }
  }
  class SquareResource extends ShapeResource {
    static {
      this.type = 'squares';
      this.attribute('side', 'float');
    }
  }
  return { MakerResource, GadgetResource, LabelResource, ShapeResource, CircleResource, SquareResource };
}

import { Resource } from '../../../core/index.ts';
import { SequelizeAdapter } from '../../../plugins/sequelize/index.ts';

/** Defaults shared by every Resource of the directory. */
export class ApplicationResource extends Resource {
  static {
    this.abstractClass = true;
    this.adapter = SequelizeAdapter;
    this.endpointNamespace = '/api/v1';
    this.baseUrl = process.env.BASE_URL;
  }

  /** The demo's stand-in for authentication: the context says who is asking. */
  isAdmin(): boolean {
    return this.context?.role === 'admin';
  }
}

import { Resource } from 'mural';
import { SequelizeAdapter } from 'mural/sequelize';

/** Defaults shared by every Resource of the directory. */
export class ApplicationResource extends Resource {
  static {
    this.abstractClass = true;
    this.adapter = SequelizeAdapter;
    this.endpointNamespace = '/api/v1';
    this.baseUrl = process.env.BASE_URL;
    // relationship links point at /employees/1/relationships/positions and /employees/1/positions,
    // which answer exactly what include gives (current_position: the active position alone, or null)
    this.relationshipLinks = 'endpoints';
  }

  /** The demo's stand-in for authentication: the context says who is asking. */
  isAdmin(): boolean {
    return this.context?.role === 'admin';
  }
}

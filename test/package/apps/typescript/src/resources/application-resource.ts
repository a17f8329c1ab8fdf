import { Resource } from 'mural';
import { SequelizeAdapter } from 'mural/sequelize';

export class ApplicationResource extends Resource {
  static {
    this.abstractClass = true;
    this.adapter = SequelizeAdapter;
    this.endpointNamespace = '/api/v1';
  }
}

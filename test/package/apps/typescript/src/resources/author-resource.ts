import { Author } from '../models/author.js';
import { ApplicationResource } from './application-resource.js';

export class AuthorResource extends ApplicationResource {
  static {
    this.model = Author;
    this.type = 'authors';
    this.attribute('name', 'string');
    this.hasMany('books');
  }
}

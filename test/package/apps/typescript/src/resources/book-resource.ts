import { Book } from '../models/book.js';
import { ApplicationResource } from './application-resource.js';

export class BookResource extends ApplicationResource {
  static {
    this.model = Book;
    this.type = 'books';
    this.attribute('title', 'string');
    this.attribute('author_id', 'integer_id', { only: ['filterable'] });
    this.belongsTo('author');
  }
}

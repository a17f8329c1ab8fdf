import { Sequelize } from 'sequelize';

/**
 * Small Express + Sequelize shops, as users write them before adding Mural's
 * CLI: products in categories, a cost only admins read. Each is a map of
 * file → content for `createApp`.
 */

const resourcesBody = {
  product: `    this.type = 'products';
    this.attribute('name', 'string');
    this.attribute('price', 'big_decimal');
    this.attribute('cost', 'big_decimal', { readable: 'isAdmin' });
    this.attribute('category_id', 'integer_id', { only: ['filterable'] });
    this.belongsTo('category');`,
  category: `    this.type = 'categories';
    this.attribute('name', 'string');
    this.hasMany('products');`,
};

/** A Resource extending mural's Resource itself, in JavaScript; products have the admin guard. */
function javascriptResource(model: 'Product' | 'Category'): string {
  const guard = model === 'Product' ? `\n\n  isAdmin() {\n    return this.context?.role === 'admin';\n  }` : '';
  return `class ${model}Resource extends Resource {
  static {
    this.adapter = SequelizeAdapter;
    this.model = ${model};
${model === 'Product' ? resourcesBody.product : resourcesBody.category}
  }${guard}
}`;
}

const columns = {
  product: `{
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    name: DataTypes.STRING,
    price: DataTypes.DECIMAL(10, 2),
    cost: DataTypes.DECIMAL(10, 2),
    category_id: DataTypes.INTEGER,
  }`,
  category: `{
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    name: DataTypes.STRING,
  }`,
};

/** TypeScript, ES modules, `tsc`-style `.js` imports, an abstract ApplicationResource, Resources in src/resources. */
export const typescriptShop: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'shop', private: true, type: 'module' }),
  'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'nodenext', strict: true, outDir: 'dist' }, include: ['src'] }),
  'src/db.ts': `import { fileURLToPath } from 'node:url';
import { Sequelize } from 'sequelize';

// new Sequelize('postgres://…') in production; a file here
export const sequelize = new Sequelize({
  dialect: 'sqlite',
  storage: fileURLToPath(new URL('../shop.db', import.meta.url)),
  logging: false,
});
`,
  'src/models/product.ts': `import { DataTypes, Model } from 'sequelize';
import { sequelize } from '../db.js';

export class Product extends Model {}

Product.init(${columns.product}, { sequelize, tableName: 'products', underscored: true, timestamps: false });
`,
  'src/models/category.ts': `import { DataTypes, Model } from 'sequelize';
import { sequelize } from '../db.js';

export class Category extends Model {}

Category.init(${columns.category}, { sequelize, tableName: 'categories', underscored: true, timestamps: false });
`,
  'src/resources/application-resource.ts': `import { Resource } from 'mural';
import { SequelizeAdapter } from 'mural/sequelize';

export class ApplicationResource extends Resource {
  static {
    this.abstractClass = true;
    this.adapter = SequelizeAdapter;
    this.endpointNamespace = '/api';
  }

  isAdmin(): boolean {
    return this.context?.role === 'admin';
  }
}
`,
  'src/resources/product-resource.ts': `import { Product } from '../models/product.js';
import { ApplicationResource } from './application-resource.js';

export class ProductResource extends ApplicationResource {
  static {
    this.model = Product;
${resourcesBody.product}
  }
}
`,
  'src/resources/category-resource.ts': `import { Category } from '../models/category.js';
import { ApplicationResource } from './application-resource.js';

export class CategoryResource extends ApplicationResource {
  static {
    this.model = Category;
${resourcesBody.category}
  }
}
`,
  'src/app.ts': `import express from 'express';
import { muralRouter } from 'mural/express';
import { CategoryResource } from './resources/category-resource.js';
import { ProductResource } from './resources/product-resource.js';

export const app = express().use(muralRouter({ resources: [ProductResource, CategoryResource] }));
`,
  'src/server.ts': `import { app } from './app.js';

app.listen(Number(process.env.PORT ?? 3000));
`,
  'test/helpers.ts': `import { Sequelize } from 'sequelize';

export const testDatabase = new Sequelize('sqlite::memory:', { logging: false });
`,
};

/** JavaScript ES modules, the instance as a default export, Resources (no base class) in src/api. */
export const esmShop: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'shop', private: true, type: 'module' }),
  'src/db.js': `import { fileURLToPath } from 'node:url';
import { Sequelize } from 'sequelize';

const db = new Sequelize({ dialect: 'sqlite', storage: fileURLToPath(new URL('../shop.db', import.meta.url)), logging: false });

export default db;
`,
  'src/models.js': `import { DataTypes, Model } from 'sequelize';
import db from './db.js';

export class Product extends Model {}
Product.init(${columns.product}, { sequelize: db, tableName: 'products', underscored: true, timestamps: false });

export class Category extends Model {}
Category.init(${columns.category}, { sequelize: db, tableName: 'categories', underscored: true, timestamps: false });
`,
  'src/api/product-resource.js': `import { Resource } from 'mural';
import { SequelizeAdapter } from 'mural/sequelize';
import { Product } from '../models.js';

export ${javascriptResource('Product')}
`,
  'src/api/category-resource.js': `import { Resource } from 'mural';
import { SequelizeAdapter } from 'mural/sequelize';
import { Category } from '../models.js';

export ${javascriptResource('Category')}
`,
  'src/app.js': `import express from 'express';
import { muralRouter } from 'mural/express';
import { CategoryResource } from './api/category-resource.js';
import { ProductResource } from './api/product-resource.js';

export const app = express().use(muralRouter({ resources: [ProductResource, CategoryResource] }));
app.listen(3000);
`,
};

/** JavaScript CommonJS, a one-file app in lib/ declaring its Resources beside the Express app. */
export const commonjsShop: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'shop', private: true }),
  'lib/database.js': `const path = require('node:path');
const { Sequelize } = require('sequelize');

const sequelize = new Sequelize({ dialect: 'sqlite', storage: path.join(__dirname, '..', 'shop.db'), logging: false });

module.exports = { sequelize };
`,
  'lib/models.js': `const { DataTypes, Model } = require('sequelize');
const { sequelize } = require('./database.js');

class Product extends Model {}
Product.init(${columns.product}, { sequelize, tableName: 'products', underscored: true, timestamps: false });

class Category extends Model {}
Category.init(${columns.category}, { sequelize, tableName: 'categories', underscored: true, timestamps: false });

module.exports = { Product, Category };
`,
  'lib/app.js': `const express = require('express');
const { Resource } = require('mural');
const { SequelizeAdapter } = require('mural/sequelize');
const { muralRouter } = require('mural/express');
const { Product, Category } = require('./models.js');

${javascriptResource('Product')}

${javascriptResource('Category')}

const app = express().use(muralRouter({ resources: [ProductResource, CategoryResource] }));

module.exports = { app, ProductResource, CategoryResource };
`,
  'index.js': `const { app } = require('./lib/app.js');

app.listen(process.env.PORT || 3000);
`,
};

/** The shop's tables and rows in the SQLite database `file`, created as a migration would. */
export async function seedShop(file: string): Promise<void> {
  const sequelize = new Sequelize({ dialect: 'sqlite', storage: file, logging: false });
  try {
    await sequelize.query('CREATE TABLE categories (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT)');
    await sequelize.query('CREATE TABLE products (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT, price DECIMAL(10, 2), cost DECIMAL(10, 2), category_id INTEGER)');
    await sequelize.query("INSERT INTO categories (name) VALUES ('Tools'), ('Garden')");
    await sequelize.query("INSERT INTO products (name, price, cost, category_id) VALUES ('Hammer', 12.5, 4, 1), ('Rake', 20, 9.5, 2), ('Saw', 30, 11, 1)");
  } finally {
    await sequelize.close();
  }
}

// Where this app keeps images (modules/images/store.ts), as `app.imageStore`: the image routes write to it
// and the shop, product and floor routes release what a deleted record used.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fp from 'fastify-plugin';
import type { Database } from '../db/client';
import { fileImageStore, type ImageStore, imageStoreFor } from '../modules/images/store';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where this app keeps images (modules/images/store.ts). */
    imageStore: ImageStore;
  }
}

export interface ImageStoreOptions {
  database: Database;
  /**
   * The store to use (main.ts passes the one for MALL_DATA_DIR). When omitted, PostgreSQL keeps images in
   * its table and an embedded database (tests) in a fresh temporary folder.
   */
  store?: ImageStore;
}

export const imageStorePlugin = fp<ImageStoreOptions>(
  async (app, { database, store }) => {
    app.decorate(
      'imageStore',
      store ??
        (database.kind === 'postgres'
          ? imageStoreFor(database, '')
          : fileImageStore(database.db, fs.mkdtempSync(path.join(os.tmpdir(), 'mall-images-')))),
    );
  },
  { name: 'image-store' },
);

// Our WASM kernel: one module, so every worker compiles and instantiates it once.
export * from './raster';
export * from './grey';
export * from './deflate';
export * from './scanlines';
export * from './palette';
export * from './jpeg';
export * from './jpeg-grey';
export * from './webp';

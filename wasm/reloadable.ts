/**
 * An Emscripten-style WASM module (a codec, a decoder) that can be instantiated afresh. A WASM memory only
 * grows: a module that once handled a 4096 px image keeps the memory it took for it, however small every
 * later image is (one 4096 px JPEG left mozjpeg's decoder at 342 MB). Instantiating the module again, from
 * its compiled code, costs 0.5–5 ms; its old instance, memory and all, is then garbage.
 */
export class Reloadable {
  private started: Promise<void> | undefined;
  private memoryBytes: () => number = () => 0;

  /**
   * `load` instantiates the module (again) and resolves to a function telling how many bytes its memory
   * holds now; `renewAboveBytes` is the size past which `renewIfGrown` makes a fresh instance.
   */
  constructor(
    private readonly load: () => Promise<() => number>,
    private readonly renewAboveBytes: number,
  ) {}

  /** The module instantiated, on first use. */
  ready(): Promise<void> {
    this.started ??= this.load().then((bytes) => {
      this.memoryBytes = bytes;
    });
    return this.started;
  }

  /** Bytes of WASM memory the current instance holds; 0 until it is loaded. */
  get bytes(): number {
    return this.memoryBytes();
  }

  /**
   * A fresh instance if the current one's memory has grown past the threshold. Call it between renders:
   * whatever the old instance held is gone.
   */
  async renewIfGrown(): Promise<boolean> {
    if (!this.started || this.bytes <= this.renewAboveBytes) return false;
    await this.renew();
    return true;
  }

  /** A fresh instance, whatever the current one holds. */
  renew(): Promise<void> {
    this.started = undefined;
    this.memoryBytes = () => 0;
    return this.ready();
  }
}

/** The memory among an instance's exports (Emscripten's minified builds name their exports by letter). */
export function exportedMemory(exports: WebAssembly.Exports): WebAssembly.Memory {
  const memory = Object.values(exports).find((e): e is WebAssembly.Memory => e instanceof WebAssembly.Memory);
  if (!memory) throw new Error('the WASM module exports no memory');
  return memory;
}

/**
 * Emscripten's hook for instantiating a module from code compiled already, reporting the instance's memory
 * to `seen`: a codec whose loader hides its module object is measured through this.
 */
export const instantiateReporting =
  (module: WebAssembly.Module, seen: (memory: WebAssembly.Memory) => void) =>
  (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void): WebAssembly.Exports => {
    const instance = new WebAssembly.Instance(module, imports);
    seen(exportedMemory(instance.exports));
    done(instance);
    return instance.exports;
  };

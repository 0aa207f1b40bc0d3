// Counts the WASM memory the codecs create, for the edge memory-budget test: wrangler dev does
// not enforce the isolate limit, so the budget has to be measured. Every instance created while
// the meter is installed is recorded with its memory (exported, or imported from the host);
// a memory only grows, so `buffer.byteLength` read after the work is its peak.
export interface MeteredMemory {
  module: WebAssembly.Module;
  memory: WebAssembly.Memory;
}

export interface WasmMemoryMeter {
  records(): MeteredMemory[];
  uninstall(): void;
}

function memoriesOf(instance: WebAssembly.Instance, imports: WebAssembly.Imports | undefined): WebAssembly.Memory[] {
  const found = Object.values(instance.exports).filter((value) => value instanceof WebAssembly.Memory);
  for (const namespace of Object.values(imports ?? {})) {
    for (const value of Object.values(namespace)) if (value instanceof WebAssembly.Memory) found.push(value);
  }
  return found;
}

export function installWasmMemoryMeter(): WasmMemoryMeter {
  const records: MeteredMemory[] = [];
  const record = (module: WebAssembly.Module, instance: WebAssembly.Instance, imports: WebAssembly.Imports | undefined) => {
    for (const memory of memoriesOf(instance, imports)) {
      if (!records.some((r) => r.memory === memory)) records.push({ module, memory });
    }
  };
  const OriginalInstance = WebAssembly.Instance;
  const originalInstantiate = WebAssembly.instantiate;

  const MeteredInstance = function (module: WebAssembly.Module, imports?: WebAssembly.Imports) {
    const instance = new OriginalInstance(module, imports);
    record(module, instance, imports);
    return instance;
  } as unknown as typeof WebAssembly.Instance;
  MeteredInstance.prototype = OriginalInstance.prototype;

  const meteredInstantiate = (async (source: WebAssembly.Module | BufferSource, imports?: WebAssembly.Imports) => {
    const result = await originalInstantiate(source, imports);
    if (result instanceof OriginalInstance) record(source, result, imports);
    else {
      const { module, instance } = result as unknown as { module: WebAssembly.Module; instance: WebAssembly.Instance };
      record(module, instance, imports);
    }
    return result;
  }) as typeof WebAssembly.instantiate;

  WebAssembly.Instance = MeteredInstance;
  WebAssembly.instantiate = meteredInstantiate;
  return {
    records: () => [...records],
    uninstall: () => {
      WebAssembly.Instance = OriginalInstance;
      WebAssembly.instantiate = originalInstantiate;
    },
  };
}

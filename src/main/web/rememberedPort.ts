/**
 * The browser window's address stays the same from one start to the next: the web shell's port is
 * remembered in the data folder (`web-port.txt`) and asked for again. When another program holds
 * it, a free port is taken instead (and remembered). Always on 127.0.0.1; the shell itself binds.
 */
import fs from 'node:fs';
import path from 'node:path';

export const PORT_FILE = 'web-port.txt';

/** The port remembered in the data folder, or null when there is none (or it is not a port). */
export function rememberedPort(dataDir: string): number | null {
  try {
    const n = Number(fs.readFileSync(path.join(dataDir, PORT_FILE), 'utf8').trim());
    return Number.isInteger(n) && n >= 1024 && n <= 65535 ? n : null;
  } catch {
    return null;
  }
}

export interface PortChoice<T> {
  started: T;
  /** Set when the remembered port was taken and another was used: the address changed. */
  movedFrom: number | null;
}

/**
 * Starts `start` on the remembered port (or `wanted`, when one was asked for), falling back to a
 * free port when that one is in use, and remembers the port it got.
 */
export async function startOnRememberedPort<T extends { port: number }>(dataDir: string, start: (port: number) => Promise<T>, wanted?: number): Promise<PortChoice<T>> {
  const first = wanted ?? rememberedPort(dataDir);
  let started: T;
  let movedFrom: number | null = null;
  if (first === null) started = await start(0);
  else {
    try {
      started = await start(first);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' && (error as NodeJS.ErrnoException).code !== 'EACCES') throw error;
      movedFrom = first;
      started = await start(0);
    }
  }
  try {
    fs.writeFileSync(path.join(dataDir, PORT_FILE), `${started.port}\n`, { mode: 0o600 });
  } catch {
    // A read-only data folder costs only the remembered address.
  }
  return { started, movedFrom };
}

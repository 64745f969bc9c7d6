// The stepping half of scripts/confirmationPath.ts: a worker thread that debugs the main thread
// through the inspector and records, at every step, the stack's files and functions, until a
// frame of the service client's purchase call (the first send) is reached.
import inspector from 'node:inspector';
import { parentPort, workerData } from 'node:worker_threads';

// An inspector session holds no handle of the worker's loop open: the port does.
parentPort.on('message', () => {});
const session = new inspector.Session();
session.connectToMainThread();
const post = (method, params) => new Promise((resolve, reject) => session.post(method, params ?? {}, (e, r) => (e ? reject(e) : resolve(r))));

const root = workerData.root;
const urls = new Map();
session.on('Debugger.scriptParsed', ({ params }) => urls.set(params.scriptId, params.url));
const sources = new Map();
async function linesOf(scriptId) {
  if (!sources.has(scriptId)) sources.set(scriptId, (await post('Debugger.getScriptSource', { scriptId })).scriptSource.split('\n'));
  return sources.get(scriptId);
}
/**
 * esbuild's CommonJS output reads an imported name through a getter (`name: () => name`, called
 * by a property getter named `get`): not a call of vendesk's code.
 */
async function isImportGetter(frame) {
  if (frame.functionName === 'get') return true;
  const at = frame.functionLocation;
  if (!at) return false;
  const text = ((await linesOf(at.scriptId))[at.lineNumber] ?? '').slice(at.columnNumber, at.columnNumber + 80);
  return /^\(\)\s*=>\s*[\w$]+\s*[,})]/.test(text);
}
function relative(url) {
  const file = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
  return file.startsWith(`${root}/`) ? file.slice(root.length + 1) : file;
}

const steps = [];
let stopped = false;
session.on('Debugger.paused', async ({ params }) => {
  const frames = [];
  for (const c of params.callFrames) {
    const file = relative(urls.get(c.location.scriptId) ?? '');
    if (!file.startsWith('src/')) continue;
    if (await isImportGetter(c)) continue;
    frames.push({ file, fn: c.functionName });
  }
  if (frames.length > 0) steps.push(frames);
  const sent = params.callFrames.some((c) => workerData.stopAt.test(c.functionName) && relative(urls.get(c.location.scriptId) ?? '') === workerData.stopFile);
  if (sent || steps.length > workerData.maxSteps) {
    if (stopped) return;
    stopped = true;
    await post('Debugger.resume');
    parentPort.postMessage({ steps, reached: sent });
    return;
  }
  await post('Debugger.stepInto');
});

(async () => {
  await post('Debugger.enable');
  // Libraries, Node's own code, the sandbox and the tests' helpers are stepped over.
  await post('Debugger.setBlackboxPatterns', { patterns: ['/node_modules/', '^node:', '^internal/', '/src/sandbox/', '/test/'] });
  parentPort.postMessage('ready');
})().catch((error) => parentPort.postMessage({ error: String(error) }));

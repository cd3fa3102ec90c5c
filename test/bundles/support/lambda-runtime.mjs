// A stand-in for the Lambda Node.js runtime, run as a process of its own per function: it imports the
// function's bundled index.mjs once (the cold start), then calls `handler(event, context)` for each invocation
// it is sent, one at a time, and answers with the result or the error. Like Lambda, an exception that escapes
// the handler's promise (an uncaught error, an unhandled rejection) ends the process.
import { randomUUID } from 'node:crypto';
import dns from 'node:dns';
import { join } from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';

const [assetDir, functionName, memorySize, timeoutSeconds] = process.argv.slice(2);

// The SQS emulator names its queues http://sqs.<region>.localhost:<port>/..., and an SDK client without an
// explicit endpoint sends to its QueueUrl's host, as it does in the cloud. Names under .localhost are loopback
// (RFC 6761); this machine's resolver does not say so, this runtime does.
const lookup = dns.lookup;
dns.lookup = (hostname, options, callback) => {
  const [settings, done] = typeof options === 'function' ? [{}, options] : [options ?? {}, callback];
  if (typeof hostname !== 'string' || !hostname.endsWith('.localhost')) return lookup(hostname, options, callback);
  if (settings.all) done(null, [{ address: '127.0.0.1', family: 4 }]);
  else done(null, '127.0.0.1', 4);
};

const serialise = (error) => ({
  name: error?.name ?? 'Error',
  message: error instanceof Error ? error.message : String(error),
  stack: error instanceof Error ? error.stack : undefined,
});

const fatal = (kind) => (error) => {
  process.send?.({ type: 'fatal', kind, error: serialise(error) }, () => process.exit(1));
};
process.on('uncaughtException', fatal('uncaughtException'));
process.on('unhandledRejection', fatal('unhandledRejection'));

const init = import(pathToFileURL(join(assetDir, 'index.mjs')).href).then((module) => {
  if (typeof module.handler !== 'function') throw new Error('index.mjs exports no function named handler');
  return module.handler;
});
// Reported with the first invocation, as Lambda reports an init error (Runtime.ImportModuleError).
init.catch(() => undefined);

let queue = Promise.resolve();
process.on('message', (message) => {
  if (message?.type === 'init') {
    init.then(
      () => process.send({ type: 'result', id: message.id, result: null }),
      (error) => process.send({ type: 'error', id: message.id, error: serialise(error) }),
    );
    return;
  }
  if (message?.type !== 'invoke') return;
  queue = queue.then(async () => {
    const deadline = Date.now() + Number(timeoutSeconds) * 1000;
    const requestId = randomUUID();
    const context = {
      awsRequestId: requestId,
      functionName,
      functionVersion: '$LATEST',
      invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
      memoryLimitInMB: memorySize,
      logGroupName: `/aws/lambda/${functionName}`,
      logStreamName: 'local',
      callbackWaitsForEmptyEventLoop: true,
      getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
      done() {},
      fail() {},
      succeed() {},
    };
    // Lambda sets the invocation's X-Ray trace header in the environment, and only for that invocation.
    if (message.traceHeader) process.env._X_AMZN_TRACE_ID = message.traceHeader;
    else delete process.env._X_AMZN_TRACE_ID;
    try {
      const handler = await init;
      const result = await handler(message.event, context);
      process.send({ type: 'result', id: message.id, result: result === undefined ? null : result });
    } catch (error) {
      process.send({ type: 'error', id: message.id, error: serialise(error) });
    }
  });
});
process.send({ type: 'ready' });

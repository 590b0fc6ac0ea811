// Example client of Easel's gRPC API (easel.v1.Engine), reading the .proto
// files straight from the repository's proto/ folder.
//
//   npm ci
//   node client.js [--server 127.0.0.1:50051] [--iterations 2000]
//
// It lists the games, starts a Connect Four game, applies a move, shows that
// an illegal move (and a 70 KB game string) is refused with INVALID_ARGUMENT,
// and asks for a suggestion. The channel uses the project's retry policy
// (easel/client/retry.py), so a full search queue is retried after the server's
// pushback delay.
'use strict';

const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const PROTO_ROOT = path.resolve(__dirname, '..', '..', 'proto');

// The retry policy the project publishes (easel/client/retry.py, SERVICE_CONFIG).
const SERVICE_CONFIG = {
  methodConfig: [{
    name: [{ service: 'easel.v1.Engine' }],
    retryPolicy: {
      maxAttempts: 5,
      initialBackoff: '0.1s',
      maxBackoff: '10s',
      backoffMultiplier: 2,
      retryableStatusCodes: ['RESOURCE_EXHAUSTED', 'UNAVAILABLE'],
    },
  }],
};

function parseArgs(argv) {
  const args = { server: '127.0.0.1:50051', iterations: 2000 };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, '');
    if (!(key in args) || i + 1 >= argv.length) {
      throw new Error(`usage: node client.js [--server HOST:PORT] [--iterations N]`);
    }
    args[key] = key === 'iterations' ? Number(argv[i + 1]) : argv[i + 1];
  }
  return args;
}

function loadEngine(server) {
  const definition = protoLoader.loadSync('easel/v1/engine.proto', {
    includeDirs: [PROTO_ROOT],
    keepCase: false,   // fields in camelCase: reportIntervalMs, numCandidates, ...
    longs: Number,     // int64 (iterations, visits) as JS numbers
    enums: String,     // enum values by name: 'NODE_KIND_CHANCE'
    defaults: true,
    oneofs: true,
  });
  const easel = grpc.loadPackageDefinition(definition).easel.v1;
  return new easel.Engine(server, grpc.credentials.createInsecure(), {
    'grpc.service_config': JSON.stringify(SERVICE_CONFIG),
  });
}

// Promise wrapper for a unary call, with a deadline.
function call(client, method, request, seconds = 30) {
  const deadline = new Date(Date.now() + seconds * 1000);
  return new Promise((resolve, reject) => {
    client[method](request, { deadline }, (err, response) => (err ? reject(err) : resolve(response)));
  });
}

// A position as a game record: the game string and every step so far, each
// given by its text (or by id: { id: 3 }).
function record(game, steps) {
  return { record: { game, steps: steps.map((text) => ({ text })) } };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const client = loadEngine(args.server);

  const { games } = await call(client, 'listGames', {});
  console.log('games:');
  for (const g of games) {
    const options = g.options.map((o) => `${o.name}=${o.defaultText}`).join(', ');
    console.log(`  ${g.name} (${g.minPlayers}-${g.maxPlayers} players) ${options}`);
  }

  const created = await call(client, 'newGame', { game: 'connect_four' });
  console.log(`new game ${created.position.game}, player ${created.position.currentPlayer} to move`);

  const legal = await call(client, 'legalActions', { position: record('connect_four', []) });
  console.log('legal actions: ' + legal.actions.map((a) => `${a.id}:${a.text}`).join(' '));

  const moved = await call(client, 'applyAction', {
    position: record('connect_four', []),
    action: { text: 'x in column 4' },
  });
  console.log(`applied ${moved.applied.text}; player ${moved.position.currentPlayer} to move`);
  process.stdout.write(moved.position.text);

  try {
    await call(client, 'applyAction', { position: record('connect_four', ['x in column 4']), action: { id: 9 } });
    throw new Error('an illegal action was accepted');
  } catch (err) {
    if (err.code !== grpc.status.INVALID_ARGUMENT) throw err;
    console.log(`illegal move refused: INVALID_ARGUMENT: ${err.details}`);
  }

  // Client text is quoted back short: a huge input gets a short, usable error,
  // and the channel stays healthy for the next calls.
  try {
    await call(client, 'newGame', { game: 'pig(' + 'x'.repeat(70000) + ')' });
    throw new Error('a 70 KB game string was accepted');
  } catch (err) {
    if (err.code !== grpc.status.INVALID_ARGUMENT) throw err;
    console.log(`long input refused: INVALID_ARGUMENT (${err.details.length} characters)`);
  }
  for (let i = 0; i < 2; i += 1) await call(client, 'newGame', { game: 'pig' });

  const suggestion = await call(client, 'suggest', {
    position: record('connect_four', ['x in column 4']),
    settings: { budget: { iterations: args.iterations }, seed: 1, numCandidates: 3 },
  });
  const a = suggestion.analysis;
  console.log(`suggest: player ${a.player}, ${a.iterations} iterations in ${a.elapsedSeconds.toFixed(3)} s`);
  for (const c of a.candidates) {
    const pv = c.pv.map((s) => (s.isChance ? '*' : '') + s.text).join(' ');
    console.log(`  ${c.rank}. ${c.text} visits=${c.visits} win=${(100 * c.winProbability).toFixed(1)}% ` +
                `value=${c.value.toFixed(3)} ±${c.confidenceHalfWidth.toFixed(3)} pv: ${pv}`);
  }
  console.log(`best: ${a.candidates[0].text}`);
  client.close();
}

main().catch((err) => {
  console.error(`error: ${err.code !== undefined ? grpc.status[err.code] + ': ' + err.details : err.stack}`);
  process.exit(1);
});

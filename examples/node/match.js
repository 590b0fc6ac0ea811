// Example client of Easel's hosted matches (easel.v1.Matches): creates a
// match against a server bot, or joins one as a client seat, and plays that
// seat to the end from the match's event stream.
//
//   npm ci
//   node match.js [--server 127.0.0.1:50051] [--game connect_four] [--vs random]
//   node match.js --server HOST:PORT --match ID --token SEAT_TOKEN --seat N
//
// Moves are chosen by asking the Engine for the legal actions of the record
// the stream has shown so far (any other policy would do). If the stream
// breaks (the server restarts), it reconnects from the last step it saw + 1,
// so it misses nothing; a step number the server has moved past is simply
// not played twice (FAILED_PRECONDITION).
'use strict';

const path = require('path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const PROTO_ROOT = path.resolve(__dirname, '..', '..', 'proto');
const USAGE = 'usage: node match.js [--server HOST:PORT] [--game GAME] [--vs BOTSPEC] ' +
              '[--match ID --token TOKEN --seat N] [--seed N]';

function parseArgs(argv) {
  const args = { server: '127.0.0.1:50051', game: 'connect_four', vs: 'random',
                 match: '', token: '', seat: 0, seed: 1 };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, '');
    if (!(key in args) || i + 1 >= argv.length) throw new Error(USAGE);
    args[key] = (key === 'seat' || key === 'seed') ? Number(argv[i + 1]) : argv[i + 1];
  }
  return args;
}

function load(server) {
  const definition = protoLoader.loadSync(['easel/v1/engine.proto', 'easel/v1/matches.proto'], {
    includeDirs: [PROTO_ROOT], keepCase: false, longs: Number, enums: String,
    defaults: true, oneofs: true,
  });
  const easel = grpc.loadPackageDefinition(definition).easel.v1;
  const creds = grpc.credentials.createInsecure();
  return { engine: new easel.Engine(server, creds), matches: new easel.Matches(server, creds) };
}

function call(client, method, request, seconds = 30) {
  const deadline = new Date(Date.now() + seconds * 1000);
  return new Promise((resolve, reject) => {
    client[method](request, { deadline }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

// A small deterministic generator, so that a seed replays the same choices.
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6D2B79F5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Play `seat` of match `matchId` to the end. Resolves with the MatchEnd event.
async function playSeat({ engine, matches }, game, matchId, token, seat, seed) {
  const random = rng(seed);
  const steps = [];         // the record so far: { id, text, kind }
  const sent = new Set();   // step numbers this seat has submitted
  for (;;) {
    const ended = await new Promise((resolve, reject) => {
      const stream = matches.watchMatch({ matchId, fromStep: steps.length, token });
      let busy = Promise.resolve();
      stream.on('data', (ev) => {
        busy = busy.then(async () => {
          let turn;
          if (ev.event === 'snapshot') {
            turn = ev.snapshot.turn;
          } else if (ev.event === 'step') {
            const s = ev.step;
            if (s.step !== steps.length) throw new Error(`step ${s.step} after ${steps.length}`);
            steps.push({ id: s.action.id, text: s.action.text, kind: s.action.kind });
            const who = s.player < 0 ? 'chance' : `seat ${s.player}`;
            console.log(`${s.step}. ${who} (${s.by}): ${s.action.text}`);
            turn = s.turn;
          } else if (ev.event === 'end') {
            resolve(ev.end);
            return;
          } else {
            return;   // a hint
          }
          const n = steps.length;
          if (turn.kind !== 'NODE_KIND_DECISION' || turn.player !== seat || sent.has(n)) return;
          const legal = await call(engine, 'legalActions',
                                   { position: { record: { game, steps } } });
          const pick = legal.actions[Math.floor(random() * legal.actions.length)];
          sent.add(n);
          try {
            await call(matches, 'submitAction', { matchId, token, step: n, action: { id: pick.id } });
          } catch (err) {
            if (err.code !== grpc.status.FAILED_PRECONDITION) throw err;
            console.log(`step ${n} not played: ${err.details}`);
          }
        }).catch((err) => { stream.cancel(); reject(err); });
      });
      stream.on('error', (err) => {
        if (err.code === grpc.status.CANCELLED) return;
        if (err.code === grpc.status.UNAVAILABLE) resolve(null);   // reconnect below
        else reject(err);
      });
      stream.on('end', () => busy.then(() => resolve(null)));
    });
    if (ended) return ended;
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const clients = load(args.server);
  let { match: matchId, token, seat, game } = args;
  if (!matchId) {
    const made = await call(clients.matches, 'createMatch', {
      game: args.game, seats: [{ client: true, name: 'node' }, { bot: args.vs }],
    });
    matchId = made.matchId;
    token = made.seatTokens[0].token;
    seat = 0;
    game = made.match.game;
    console.log(`created match ${matchId}: ${game}, seat 0 (node) against ${args.vs}`);
  } else {
    const got = await call(clients.matches, 'getMatch', { matchId });
    game = got.match.game;
    console.log(`joined match ${matchId}: ${game}, seat ${seat}`);
  }
  const end = await playSeat(clients, game, matchId, token, seat, args.seed);
  const r = end.result;
  console.log(`end: ${end.status} ${r.reason} after ${end.steps} steps; returns ${r.returns.join(' ')}`);
  clients.engine.close();
  clients.matches.close();
}

main().catch((err) => {
  console.error(`error: ${err.code !== undefined ? grpc.status[err.code] + ': ' + err.details : err.stack}`);
  process.exit(1);
});

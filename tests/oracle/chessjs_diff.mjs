// Differential test against chess.js: plays seeded random games with chess.js, replays them all
// through one `chaiba replay` process, and compares FEN, game status and the legal SAN set after
// every ply. Usage: node chessjs_diff.mjs CHAIBA_BINARY [GAMES=300] [SEED=1]
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const { Chess } = await import(path.join(here, '../e2e/node_modules/chess.js/dist/esm/chess.js'));

const [binary, gamesArg = '300', seedArg = '1'] = process.argv.slice(2);
if (!binary) {
  console.error('usage: node chessjs_diff.mjs CHAIBA_BINARY [GAMES] [SEED]');
  process.exit(2);
}

// mulberry32: small seeded generator so failures reproduce.
let seed = Number(seedArg) >>> 0;
function random() {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

// chess.js's own definitions (isCheckmate = inCheck && no move, isStalemate = !inCheck && no
// move), computed from one move generation per position (SAN strings: chess.js's verbose moves
// each make and unmake the move for their FENs): the oracle spends its time in chess.js.
function statusOf(chess, legal) {
  if (legal.length === 0) return chess.inCheck() ? 'checkmate' : 'stalemate';
  if (chess.isInsufficientMaterial()) return 'insufficient_material';
  if (chess.isThreefoldRepetition()) return 'threefold_claimable';
  if (chess.isDrawByFiftyMoves()) return 'fifty_move_claimable';
  return 'ongoing';
}

// The state line `chaiba replay` prints, and whether the game is over (chess.js isGameOver).
function state(chess, legal) {
  const sans = legal.slice().sort();
  const status = statusOf(chess, legal);
  return { line: `${chess.fen()}\t${status}\t${sans.join(' ')}`, over: status !== 'ongoing' };
}

const games = [];
const expected = [];
for (let g = 0; g < Number(gamesArg); g++) {
  const chess = new Chess();
  const moves = [];
  let legal = chess.moves();
  let now = state(chess, legal);
  const states = [now.line];
  // Half the games prefer captures and checks (more promotions, mates, bare kings).
  const aggressive = g % 2 === 1;
  while (!now.over && moves.length < 400) {
    let pool = legal;
    if (aggressive && random() < 0.7) {
      // captures, checks and promotions, read off the SAN
      const sharp = legal.filter((san) => san.includes('x') || san.includes('+') || san.includes('='));
      if (sharp.length) pool = sharp;
    }
    const move = pool[Math.floor(random() * pool.length)];
    chess.move(move);
    moves.push(move);
    legal = chess.moves();
    now = state(chess, legal);
    states.push(now.line);
  }
  games.push(moves.join(' '));
  expected.push(states);
}

const run = spawnSync(binary, ['replay'], { input: games.join('\n') + '\n', maxBuffer: 1 << 30, encoding: 'utf8' });
if (run.status !== 0) {
  console.error(`chaiba replay exited ${run.status}: ${run.stderr}`);
  process.exit(1);
}
const lines = run.stdout.split('\n');
let index = 0;
let failures = 0;
let positions = 0;
const statuses = {};
for (let g = 0; g < expected.length; g++) {
  for (let i = 0; i < expected[g].length; i++) {
    const got = lines[index++];
    const want = expected[g][i];
    positions++;
    const status = want.split('\t')[1];
    statuses[status] = (statuses[status] || 0) + 1;
    if (got !== want) {
      if (failures++ < 10) {
        console.error(`game ${g + 1}, ply ${i}: moves ${games[g].split(' ').slice(0, i).join(' ')}`);
        console.error(`  chess.js: ${want}`);
        console.error(`  chaiba:   ${got}`);
      }
      break;
    }
  }
  // Skip to this game's "end" line.
  while (index < lines.length && lines[index] !== 'end') index++;
  index++;
}
console.log(`${expected.length} games, ${positions} positions compared, ${failures} games differ`);
console.log(`statuses seen: ${JSON.stringify(statuses)}`);
process.exit(failures ? 1 : 0);

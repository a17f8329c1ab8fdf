import type { Watch } from '../database-deadline.ts';

/**
 * Reads on SQLite's shared connection, and their deadlines.
 *
 * node-sqlite3 holds the connection's mutex for the whole of a statement, so
 * reads sent to it together run one after another, each waiting for its
 * turn on a thread of libuv's pool, where nothing can take it back. A read
 * whose deadline passed while it waited used to start anyway and run
 * unbounded: its cancel had interrupted whichever statement was running
 * then. Holding reads back in the process instead (at most a few sent)
 * fixed that but cost 7–15% of the throughput of 16 concurrent requests,
 * since the connection then idled whenever the event loop was busy.
 *
 * So every read is still sent at once, oldest first, and when one's time
 * runs out its request answers at once; its statement is interrupted when
 * it is the oldest one unfinished, which is the one running, and again
 * every 100 ms while it has not stopped. Threads can take the connection
 * out of order: an interrupt that reaches another read makes withinDeadline
 * run that read once more (../database-deadline.ts).
 */
const REINTERRUPT_MS = 100;

interface Sent {
  readonly interrupt: () => void;
  /** Its time ran out: its request has answered, the statement is to be stopped. */
  late: boolean;
  settled: boolean;
}

/** Reads sent to a connection and unfinished, oldest first. */
const unfinished = new WeakMap<object, Sent[]>();

/** Runs `read` on `connection`; `interrupt` stops the statement the connection is running. */
export function readShared<T>(connection: object, watch: Watch | undefined, interrupt: () => void, read: () => Promise<T>): Promise<T> {
  const line = unfinished.get(connection) ?? startLine(connection);
  const mine: Sent = { interrupt, late: false, settled: false };
  line.push(mine);
  const finish = () => {
    mine.settled = true;
    line.splice(line.indexOf(mine), 1);
    if (line[0]?.late) interruptWhileOldest(line, line[0]);
    if (watch) watch.stopWaiting = undefined;
  };
  // one promise per read, not a chain of them: this runs for every read on SQLite
  return new Promise<T>((resolve, reject) => {
    if (watch) {
      watch.stopWaiting = () => {
        mine.late = true;
        reject(new Error('Mural: the deadline passed before the read on the SQLite connection was over'));
        interruptWhileOldest(line, mine);
      };
    }
    const failed = (error: unknown) => {
      finish();
      reject(error);
    };
    try {
      read().then((value) => {
        finish();
        resolve(value);
      }, failed);
    } catch (error) {
      failed(error);
    }
  });
}

function interruptWhileOldest(line: readonly Sent[], sent: Sent): void {
  if (sent.settled || line[0] !== sent) return;
  sent.interrupt();
  setTimeout(() => interruptWhileOldest(line, sent), REINTERRUPT_MS).unref();
}

function startLine(connection: object): Sent[] {
  const line: Sent[] = [];
  unfinished.set(connection, line);
  return line;
}

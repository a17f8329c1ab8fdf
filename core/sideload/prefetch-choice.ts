import type { RelationshipDefinition } from '../resource/relationship-definition.ts';

/**
 * `nestedPrefetch: 'auto'`: whether the next load of a relationship reads
 * it beside its parents, decided by how long the sideloads of requests
 * that loaded it have taken each way.
 * Where the database is a network hop away, reading beside the parents
 * saves that hop; where it shares the machine's cores and answers at once,
 * the extra work costs more than the hop it saves. Mural cannot see which
 * it is, and a threshold on time alone mistook a slow moment of a local
 * database for a far one; so it times both and keeps the faster, trying
 * the other one load in EXPLORE_EVERY (up to MAX_EXPLORE_EVERY while it
 * stays clearly slower) to notice when that changes.
 *
 * The state is per relationship and per process: it decides how to read,
 * never what a response holds.
 */

/** One load in this many takes the way not chosen, to keep its time current. */
export const EXPLORE_EVERY = 16;
/**
 * While the way not chosen keeps coming out clearly slower (by more than
 * CLEARLY_SLOWER), the loads between its tries double, up to this many: on
 * a database sharing the machine's cores each prefetch costs its request
 * 12–15%, and trying it one load in 16 was most of what `auto` cost there.
 * A try that is not clearly slower brings the interval back to EXPLORE_EVERY.
 */
export const MAX_EXPLORE_EVERY = 128;
const CLEARLY_SLOWER = 1.1;
/** Misses in a row (a prefetch lacking a record its parents name) after which prefetches pause, and for how many loads. */
export const PAUSE_AFTER_MISSES = 3;
export const PAUSE_FOR = 64;

/** Recent loads each way, whose median stands for that way. */
const SAMPLES = 9;
/** Loads each way before the medians decide: until then the two alternate. */
const FIRST_SAMPLES = 3;

interface TrackRecord {
  readonly withPrefetch: number[];
  readonly without: number[];
  loads: number;
  missesInARow: number;
  paused: number;
  /** Loads between tries of the way not chosen, and the load of the next try. */
  exploreEvery: number;
  nextExplore: number;
  /** The way being tried (true: with a prefetch), until its time comes in. */
  exploring?: boolean;
}

const trackRecords = new WeakMap<RelationshipDefinition, TrackRecord>();

/** Whether this load of the relationship's parents starts a prefetch of it. */
export function choosePrefetch(relationship: RelationshipDefinition, mode: 'auto' | 'always'): boolean {
  const track = trackRecordOf(relationship);
  if (track.paused > 0) {
    track.paused--;
    return false;
  }
  if (mode === 'always') return true;
  const load = ++track.loads;
  if (track.withPrefetch.length < FIRST_SAMPLES || track.without.length < FIRST_SAMPLES) return track.withPrefetch.length <= track.without.length;
  const faster = median(track.withPrefetch) < median(track.without);
  if (load < track.nextExplore) return faster;
  track.nextExplore = load + track.exploreEvery;
  track.exploring = !faster;
  return !faster;
}

/** Records how long the sideloads of a request that loaded the relationship took, with a prefetch started or without. */
export function timeLoad(relationship: RelationshipDefinition, prefetched: boolean, ms: number): void {
  const track = trackRecordOf(relationship);
  const samples = prefetched ? track.withPrefetch : track.without;
  if (track.exploring === prefetched) {
    track.exploring = undefined;
    const chosen = prefetched ? track.without : track.withPrefetch;
    const clearlySlower = chosen.length > 0 && ms > median(chosen) * CLEARLY_SLOWER;
    track.exploreEvery = clearlySlower ? Math.min(track.exploreEvery * 2, MAX_EXPLORE_EVERY) : EXPLORE_EVERY;
    track.nextExplore = track.loads + track.exploreEvery;
  }
  samples.push(ms);
  if (samples.length > SAMPLES) samples.shift();
}

/** Records whether a prefetch held every record its parents named; misses in a row pause prefetching. */
export function scorePrefetch(relationship: RelationshipDefinition, hit: boolean): void {
  const track = trackRecordOf(relationship);
  track.missesInARow = hit ? 0 : track.missesInARow + 1;
  if (track.missesInARow < PAUSE_AFTER_MISSES) return;
  track.paused = PAUSE_FOR;
  // after the pause one more miss pauses again
  track.missesInARow = PAUSE_AFTER_MISSES - 1;
}

function trackRecordOf(relationship: RelationshipDefinition): TrackRecord {
  let track = trackRecords.get(relationship);
  if (!track) {
    track = { withPrefetch: [], without: [], loads: 0, missesInARow: 0, paused: 0, exploreEvery: EXPLORE_EVERY, nextExplore: EXPLORE_EVERY };
    trackRecords.set(relationship, track);
  }
  return track;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}

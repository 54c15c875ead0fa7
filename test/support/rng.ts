/** A small seeded generator (mulberry32), so a randomised test's failure can be replayed from its seed. */
export { seededRandom as rng } from '../../src/core/trials/stats';

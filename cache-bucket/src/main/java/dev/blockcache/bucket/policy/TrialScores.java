package dev.blockcache.bucket.policy;

import java.util.Arrays;

/**
 * The scores of miniatures replayed side by side on the same lookups ({@link WindowTrials}, {@link HistoryDuel}):
 * each miniature's hits in a period of {@value WindowTrials#PERIOD} scored lookups are added to its score, which is
 * first multiplied by {@value WindowTrials#DECAY}, and each counts the periods in a row it hit more than a reference
 * miniature (the one matching what the cache does now). {@link #leader} is the rule both owners act on.
 *
 * <p>Thread-safety: not thread-safe; its owner calls it under the {@link SpaceReclaimer}'s lock.
 */
final class TrialScores {
  private final long[] periodHits;
  private final double[] scores;
  /** Periods in a row each miniature hit more than the reference. */
  private final int[] streaks;
  private long periodLookups;
  private double decayedLookups;

  /** Scores of {@code miniatures} miniatures, all 0. */
  TrialScores(int miniatures) {
    periodHits = new long[miniatures];
    scores = new double[miniatures];
    streaks = new int[miniatures];
  }

  /** Sets every score, streak and count back to 0, for miniatures that start over. */
  void reset() {
    Arrays.fill(periodHits, 0);
    Arrays.fill(scores, 0);
    Arrays.fill(streaks, 0);
    periodLookups = 0;
    decayedLookups = 0;
  }

  /** Counts a hit of {@code miniature} in the period under way. */
  void hit(int miniature) {
    periodHits[miniature]++;
  }

  /** Drops the hits counted since the last scored lookup: this lookup is not scored (miniatures filling, settling). */
  void unscored() {
    Arrays.fill(periodHits, 0);
  }

  /**
   * Counts a scored lookup, whose hits were counted; after {@value WindowTrials#PERIOD} of them, ends the period,
   * comparing each miniature's hits in it with {@code reference}'s.
   *
   * @return whether a period ended
   */
  boolean scored(int reference) {
    if (++periodLookups < WindowTrials.PERIOD) {
      return false;
    }
    decayedLookups = decayedLookups * WindowTrials.DECAY + periodLookups;
    for (int i = 0; i < scores.length; i++) {
      streaks[i] = periodHits[i] > periodHits[reference] ? streaks[i] + 1 : 0;
      scores[i] = scores[i] * WindowTrials.DECAY + periodHits[i];
    }
    Arrays.fill(periodHits, 0);
    periodLookups = 0;
    return true;
  }

  /**
   * The miniature whose score is best, if it leads {@code reference}'s by more than {@value WindowTrials#JUMP_LEAD}
   * of the decayed lookups and hit more than it in each of the last {@value WindowTrials#STREAK} periods; else -1.
   */
  int leader(int reference) {
    int best = 0;
    for (int i = 1; i < scores.length; i++) {
      if (scores[i] > scores[best]) {
        best = i;
      }
    }
    boolean leads = scores[best] - scores[reference] > WindowTrials.JUMP_LEAD * decayedLookups;
    return leads && streaks[best] >= WindowTrials.STREAK ? best : -1;
  }

  @Override
  public String toString() {
    return Arrays.toString(scores);
  }
}

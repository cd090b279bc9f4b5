package dev.blockcache.bucket.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

/** The scoring rule the window trials and the history duel share, on hand-made periods of three miniatures. */
class TrialScoresTest {
  private static final int REFERENCE = 0;

  private final TrialScores scores = new TrialScores(3);

  /** One period in which miniature {@code i} hits {@code hits[i]} of the period's lookups. */
  private void period(int... hits) {
    for (int lookup = 0; lookup < WindowTrials.PERIOD; lookup++) {
      for (int i = 0; i < hits.length; i++) {
        if (lookup < hits[i]) {
          scores.hit(i);
        }
      }
      boolean ended = scores.scored(REFERENCE);
      assertEquals(lookup == WindowTrials.PERIOD - 1, ended, "a period ends after its last lookup");
    }
  }

  @Test
  void aClearLeadProposesTheLeaderOnlyAfterAStreakOfPeriods() {
    for (int p = 1; p < WindowTrials.STREAK; p++) {
      period(500, 560, 520);
      assertEquals(-1, scores.leader(REFERENCE), "no streak yet after " + p + " periods");
    }
    period(500, 560, 520);
    assertEquals(1, scores.leader(REFERENCE));
    assertEquals(-1, scores.leader(1), "the leader itself is no jump");
  }

  @Test
  void aLeadFromOnePeriodWithoutAStreakProposesNothing() {
    period(100, 900, 100);
    for (int p = 0; p < WindowTrials.STREAK; p++) {
      period(500, 499, 500);
    }
    assertEquals(-1, scores.leader(REFERENCE), "leads on score but lost the last periods: " + scores);
  }

  @Test
  void aLeadWithinHalfAPointProposesNothing() {
    for (int p = 0; p < 2 * WindowTrials.STREAK; p++) {
      period(500, 504, 500);
    }
    assertEquals(-1, scores.leader(REFERENCE), "a streak, but a lead under half a point: " + scores);
  }

  @Test
  void unscoredLookupsCountNoHitsAndResetStartsOver() {
    for (int i = 0; i < 600; i++) {
      scores.hit(1); // while the miniatures settle
    }
    scores.unscored();
    for (int p = 0; p < WindowTrials.STREAK; p++) {
      period(500, 503, 500);
    }
    assertEquals(-1, scores.leader(REFERENCE), "the settling hits were dropped: " + scores);
    for (int p = 0; p < WindowTrials.STREAK; p++) {
      period(500, 560, 500);
    }
    assertEquals(1, scores.leader(REFERENCE));
    scores.reset();
    assertEquals(-1, scores.leader(REFERENCE), "scores and streaks back to 0");
    assertFalse(scores.scored(REFERENCE), "a new period starts");
  }
}

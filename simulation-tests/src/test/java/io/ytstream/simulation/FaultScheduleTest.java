package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class FaultScheduleTest {

  @Test
  void theSameSeedGivesTheSameScheduleAndOthersDiffer() {
    FaultSchedule a = FaultSchedule.generate(42, 30, SimMode.TRANSACTIONAL);
    assertEquals(a, FaultSchedule.generate(42, 30, SimMode.TRANSACTIONAL));
    int distinct = 0;
    for (long seed = 1; seed <= 20; seed++) {
      if (!FaultSchedule.generate(seed, 30, SimMode.TRANSACTIONAL).equals(a)) {
        distinct++;
      }
    }
    assertEquals(20, distinct);
  }

  @Test
  void textFormRoundTrips() {
    FaultSchedule s = FaultSchedule.parse("CRASH_AFTER_STEP@12:3,PROXY_ERROR@40:0");
    assertEquals(2, s.size());
    assertEquals(s, FaultSchedule.parse(s.toString()));
    assertEquals(0, FaultSchedule.parse("").size());
    assertThrows(IllegalArgumentException.class, () -> FaultSchedule.parse("CRASH@x"));
  }

  @Test
  void faultsFireAtTheirOccurrenceOfTheirOwnEvent() {
    FaultClock clock = new FaultClock(FaultSchedule.parse("TASK_FAILURE@2:7,COMMIT_UNKNOWN@0:1"));
    assertEquals(-1, clock.tick(SimFault.TASK_FAILURE));
    assertEquals(1, clock.tick(SimFault.COMMIT_UNKNOWN));
    assertEquals(-1, clock.tick(SimFault.TASK_FAILURE));
    assertEquals(7, clock.tick(SimFault.TASK_FAILURE));
    assertEquals(-1, clock.tick(SimFault.TASK_FAILURE));
    assertEquals(1, clock.fired(SimFault.TASK_FAILURE));
    assertNotEquals(0, clock.fired(SimFault.COMMIT_UNKNOWN));
  }
}

package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.ytstream.simulation.check.MisplacedWrite;
import io.ytstream.simulation.check.Violations;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * {@link MisplacedWrite} is not blind: rows put elsewhere than the job asked are caught, and a run
 * whose job chooses tablets reaches the check with every kind of choice.
 */
class MisplacedWriteTest {

  @Test
  void aRowOutsideTheTabletItsColumnNamedIsCaught() {
    Violations out = new Violations(line -> {});
    MisplacedWrite check = new MisplacedWrite(true, 3);
    check.arrived(out, 7, 1);
    check.arrived(out, -2, 1);
    assertFalse(out.any(), "7 mod 3 and -2 mod 3 are tablet 1: " + out.all());
    check.arrived(out, 8, 1);
    assertEquals(1, out.all().size(), "8 asked for tablet 2");
  }

  @Test
  void oneKeysRowsInTwoTabletsAreCaught() {
    Violations out = new Violations(line -> {});
    MisplacedWrite check = new MisplacedWrite(false, 3);
    check.arrived(out, 5, 2);
    check.arrived(out, 6, 0);
    check.arrived(out, 5, 2);
    assertFalse(out.any(), "each key in one tablet: " + out.all());
    check.arrived(out, 5, 1);
    assertEquals(1, out.all().size(), "key 5 in tablets 2 and 1");
  }

  @Test
  void seedsDrawEveryChoice() {
    long kinds = LongStream.rangeClosed(1, 30).mapToObj(TabletChoice::forSeed).distinct().count();
    assertEquals(3, kinds, "the first 30 seeds draw all three choices");
  }
}

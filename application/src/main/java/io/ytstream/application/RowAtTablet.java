package io.ytstream.application;

import io.ytstream.ports.Row;

/**
 * Builds a writer's next row once the output tablet it goes to is known ({@link
 * io.ytstream.core.delivery.OutputTablets}): the engine converts its row and puts {@code
 * $tablet_index} in one pass, with no copy after.
 */
@FunctionalInterface
public interface RowAtTablet {

  /** The row for {@code tablet} (a sorted output ignores it: its rows go by key). */
  Row build(int tablet);
}

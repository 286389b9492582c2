package io.ytstream.application;

import io.ytstream.core.model.YPath;
import java.util.Objects;

/**
 * The table a sink writes: its path, whether it is sorted (rows upserted by key, spread over its
 * tablets by key) or ordered (rows appended to the tablet each row names), and its tablet count.
 */
public record OutputTarget(YPath path, boolean sorted, int tabletCount) {
  public OutputTarget {
    Objects.requireNonNull(path, "path");
    if (tabletCount < 1) {
      throw new IllegalArgumentException("an output table has at least one tablet: " + tabletCount);
    }
  }
}

package io.ytstream.inmemory;

import io.ytstream.ports.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The committed versions of one sorted-table key, oldest first, so that a transaction reads the
 * value as of its start timestamp (snapshot isolation) and a commit can see whether the key was
 * written after a transaction started (row-lock conflict). A deletion is a version without a row.
 */
final class KeyVersions {

  private record Version(long timestamp, Optional<Row> row) {}

  private final List<Version> versions = new ArrayList<>();

  void add(long commitTimestamp, Optional<Row> row, long oldestReaderTimestamp) {
    versions.add(new Version(commitTimestamp, row));
    prune(oldestReaderTimestamp);
  }

  /** The row as of {@code timestamp}; empty when absent or deleted then. */
  Optional<Row> at(long timestamp) {
    for (int i = versions.size() - 1; i >= 0; i--) {
      if (versions.get(i).timestamp() <= timestamp) {
        return versions.get(i).row();
      }
    }
    return Optional.empty();
  }

  Optional<Row> latest() {
    return versions.isEmpty() ? Optional.empty() : versions.get(versions.size() - 1).row();
  }

  long lastCommitTimestamp() {
    return versions.isEmpty() ? Long.MIN_VALUE : versions.get(versions.size() - 1).timestamp();
  }

  /** True when no version holds a row any more and none is needed by a reader. */
  boolean isDeadAfterPrune() {
    return versions.size() == 1 && versions.get(0).row().isEmpty();
  }

  /**
   * Drops versions no live transaction can read: everything older than the newest version at or
   * before {@code oldestReaderTimestamp}. Keeps memory flat for consumer rows advanced every batch.
   */
  private void prune(long oldestReaderTimestamp) {
    int keepFrom = 0;
    for (int i = versions.size() - 1; i >= 0; i--) {
      if (versions.get(i).timestamp() <= oldestReaderTimestamp) {
        keepFrom = i;
        break;
      }
    }
    if (keepFrom > 0) {
      versions.subList(0, keepFrom).clear();
    }
  }
}

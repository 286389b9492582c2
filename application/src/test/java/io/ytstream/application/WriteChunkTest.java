package io.ytstream.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.commit.CommitOutcome;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.ClusterOperation;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The writers' one retry rule for a chunk, over the in-memory cluster's injected faults. */
class WriteChunkTest {

  private static final YPath ORDERED = YPath.of("//ordered");
  private static final YPath SORTED = YPath.of("//sorted");

  private final InMemoryCluster cluster = new InMemoryCluster("primary", new ManualClock());
  private final List<String> retries = new ArrayList<>();
  private final WriteChunk writer =
      new WriteChunk(
          cluster.outputTables(),
          (attempt, outcome, error) -> retries.add(attempt + ":" + outcome));

  WriteChunkTest() {
    cluster.createOrderedTable(ORDERED, List.of(new Column("v", "int64", false, false)), 1);
    cluster.createSortedTable(
        SORTED,
        List.of(new Column("k", "int64", true, true), new Column("v", "int64", false, false)));
  }

  private static List<Row> rows(long... values) {
    List<Row> rows = new ArrayList<>();
    for (long v : values) {
      rows.add(Row.of("k", v, "v", v * 10));
    }
    return rows;
  }

  private static List<Row> orderedRows(long... values) {
    List<Row> rows = new ArrayList<>();
    for (long v : values) {
      rows.add(Row.of("v", v));
    }
    return rows;
  }

  @Test
  void throttlingIsWrittenAgainAndLandsOnce() {
    cluster.faults().failNext(ClusterOperation.OUTPUT_APPEND, YtErrorCode.REQUEST_THROTTLED);

    writer.write(ORDERED, false, orderedRows(1, 2));

    assertEquals(2, cluster.outputTables().readAll(ORDERED).size(), "the chunk once");
    assertEquals(List.of("1:" + CommitOutcome.RETRY_LATER), retries);
  }

  @Test
  void aChunkThatKeepsFailingFailsAfterTheLastAttempt() {
    cluster
        .faults()
        .failNext(
            ClusterOperation.OUTPUT_UPSERT,
            WriteChunk.ATTEMPTS,
            YtErrorCode.TABLET_NOT_MOUNTED,
            "tablet is not mounted");

    YtException e = assertThrows(YtException.class, () -> writer.write(SORTED, true, rows(1)));

    assertTrue(e.hasCode(YtErrorCode.TABLET_NOT_MOUNTED), e.toString());
    assertEquals(WriteChunk.ATTEMPTS, cluster.faults().firedCount(ClusterOperation.OUTPUT_UPSERT));
    assertEquals(WriteChunk.ATTEMPTS - 1, retries.size(), "every attempt but the last retried");
    assertTrue(cluster.outputTables().readAll(SORTED).isEmpty(), "nothing written");
  }

  @Test
  void aPermanentErrorFailsAtTheFirstAttempt() {
    cluster
        .faults()
        .failNext(
            ClusterOperation.OUTPUT_APPEND,
            WriteChunk.ATTEMPTS,
            YtErrorCode.AUTHORIZATION_ERROR,
            "access denied");

    assertThrows(YtException.class, () -> writer.write(ORDERED, false, orderedRows(1)));

    assertEquals(1, cluster.faults().firedCount(ClusterOperation.OUTPUT_APPEND));
    assertEquals(List.of(), retries);
  }

  @Test
  void anUnknownOutcomeIsWrittenAgainAndAnUpsertAbsorbsIt() {
    cluster.faults().unknownOutcomeAfterApplying(ClusterOperation.OUTPUT_UPSERT, 1);

    writer.write(SORTED, true, rows(1, 2, 3));

    assertEquals(List.of("1:" + CommitOutcome.UNKNOWN), retries);
    assertEquals(3, cluster.outputTables().readAll(SORTED).size(), "one row per key");
  }

  @Test
  void theRuleRetriesOnlyRetriableAndUnknownOutcomesBeforeTheLastAttempt() {
    RuntimeException plain = new RuntimeException("x");
    assertTrue(WriteChunk.writesAgain(plain, CommitOutcome.RETRY_LATER, 1));
    assertTrue(WriteChunk.writesAgain(plain, CommitOutcome.UNKNOWN, WriteChunk.ATTEMPTS - 1));
    assertFalse(WriteChunk.writesAgain(plain, CommitOutcome.UNKNOWN, WriteChunk.ATTEMPTS));
    assertFalse(WriteChunk.writesAgain(plain, CommitOutcome.FAILED, 1));
    assertFalse(WriteChunk.writesAgain(plain, CommitOutcome.FENCED, 1));
    // A stopping query's interruption ends the write as it is, so Spark stops the query cleanly.
    RuntimeException stopped =
        new UncheckedIOException("stopping", new InterruptedIOException("interrupted"));
    assertFalse(WriteChunk.writesAgain(stopped, CommitOutcome.UNKNOWN, 1));
  }
}

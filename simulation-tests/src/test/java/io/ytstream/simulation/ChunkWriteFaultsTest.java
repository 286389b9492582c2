package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.ChunkedTaskWriter;
import io.ytstream.application.WriteChunk;
import io.ytstream.core.commit.CommitOutcome;
import io.ytstream.core.error.YtException;
import io.ytstream.ports.Row;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The at-least-once and idempotent writers' chunks under the faults of the simulation's ports,
 * through the shipped {@link ChunkedTaskWriter} and {@link WriteChunk}: a chunk refused by the
 * proxy is written again and lands once; one refused {@link WriteChunk#ATTEMPTS} times fails the
 * task with the last error; a chunk whose answer was lost after it landed is written again, which
 * an ordered output holds twice (DUPLICATE_WRITE, what at-least-once allows and the seeded runs
 * count) and a sorted output absorbs; a chunk never holds more rows than its size (CHUNK_BOUND).
 */
class ChunkWriteFaultsTest {

  private final InMemorySimCluster cluster = new InMemorySimCluster();
  private final List<CommitOutcome> retried = new ArrayList<>();
  private final List<Integer> requestSizes = new ArrayList<>();
  private FaultClock faults;

  private WriteChunk chunks(String schedule, boolean sorted, int tablets) {
    if (sorted) {
      cluster.createSortedTable(Workload.OUTPUT, List.of("p", "r", "i"), List.of("v"));
    } else {
      cluster.createOutputQueue(Workload.OUTPUT, List.of("p", "r", "i", "v"), tablets);
    }
    faults = new FaultClock(FaultSchedule.parse(schedule));
    FaultyPorts ports = new FaultyPorts(cluster, faults);
    ports.onWrite((call, rows) -> requestSizes.add(rows));
    return new WriteChunk(ports, (attempt, outcome, error) -> retried.add(outcome));
  }

  private static void write(ChunkedTaskWriter writer, boolean sorted, int n) {
    for (long r = 0; r < n; r++) {
      Row row = Row.of("p", 0L, "r", r, "i", 0L, "v", r * 2 + 1);
      writer.write(tablet -> sorted ? row : row.with("$tablet_index", (long) tablet));
    }
  }

  private long outputRows() {
    return cluster.readChanges(Workload.OUTPUT).rowCount();
  }

  @Test
  void chunksHoldTheirSizeAndTheRowsGoRoundTheTablets() {
    WriteChunk chunks = chunks("", false, 3);
    ChunkedTaskWriter writer = new ChunkedTaskWriter(chunks, Workload.OUTPUT, false, 1, 3, 3);
    write(writer, false, 7);
    assertEquals(2, writer.chunksWritten(), "two full chunks before the commit");
    writer.commit();
    writer.commit(); // nothing left: no empty request
    assertEquals(3, writer.chunksWritten());
    assertEquals(List.of(3, 3, 1), requestSizes, "CHUNK_BOUND");
    // Task 1 starts at tablet 1: rows 0..6 go to tablets 1,2,0,1,2,0,1.
    assertArrayEquals(new long[] {2, 3, 2}, writer.rowsPerTablet());
    assertEquals(7, outputRows());
  }

  @Test
  void aSortedOutputCountsItsRowsInOneCounterAndAnAbortDropsTheRest() {
    WriteChunk chunks = chunks("", true, 1);
    ChunkedTaskWriter writer = new ChunkedTaskWriter(chunks, Workload.OUTPUT, true, 2, 4, 4);
    write(writer, true, 6);
    writer.abort();
    writer.commit();
    assertArrayEquals(new long[] {6}, writer.rowsPerTablet());
    assertEquals(List.of(4), requestSizes, "the aborted task's last two rows never went out");
    assertEquals(4, outputRows());
  }

  @Test
  void aChunkRefusedByTheProxyIsWrittenAgainAndLandsOnce() {
    WriteChunk chunks = chunks("PROXY_ERROR@0:0,PROXY_ERROR@1:0", false, 1);
    ChunkedTaskWriter writer = new ChunkedTaskWriter(chunks, Workload.OUTPUT, false, 0, 1, 10);
    write(writer, false, 4);
    writer.commit();
    assertEquals(List.of(CommitOutcome.RETRY_LATER, CommitOutcome.RETRY_LATER), retried);
    assertEquals(4, outputRows(), "LOST_WRITE or DUPLICATE_WRITE");
  }

  @Test
  void aChunkRefusedOnEveryAttemptFailsTheTaskWithTheLastError() {
    WriteChunk chunks = chunks("PROXY_ERROR@0:0,PROXY_ERROR@1:0,PROXY_ERROR@2:0", false, 1);
    ChunkedTaskWriter writer = new ChunkedTaskWriter(chunks, Workload.OUTPUT, false, 0, 1, 10);
    write(writer, false, 4);
    YtException e = assertThrows(YtException.class, writer::commit);
    assertTrue(e.getMessage().contains("simulated proxy error"), e.getMessage());
    assertEquals(WriteChunk.ATTEMPTS - 1, retried.size(), "retried until the last attempt");
    assertEquals(3, faults.fired(SimFault.PROXY_ERROR));
    assertEquals(0, outputRows());
  }

  @Test
  void aChunkWhoseAnswerWasLostIsWrittenAgainTwiceInAnOrderedOutput() {
    WriteChunk chunks = chunks("COMMIT_UNKNOWN@0:0", false, 1);
    ChunkedTaskWriter writer = new ChunkedTaskWriter(chunks, Workload.OUTPUT, false, 0, 1, 10);
    write(writer, false, 3);
    writer.commit();
    assertEquals(List.of(CommitOutcome.UNKNOWN), retried);
    assertEquals(6, outputRows(), "at-least-once: the landed chunk and its copy");
  }

  @Test
  void aChunkWhoseAnswerWasLostIsAbsorbedByASortedOutput() {
    WriteChunk chunks = chunks("COMMIT_UNKNOWN@0:0", true, 1);
    ChunkedTaskWriter writer = new ChunkedTaskWriter(chunks, Workload.OUTPUT, true, 0, 1, 10);
    write(writer, true, 3);
    writer.commit();
    assertEquals(List.of(CommitOutcome.UNKNOWN), retried);
    assertEquals(3, outputRows(), "DUPLICATE_WRITE in the idempotent output");
  }

  @Test
  void aChunkMeetingALockConflictIsWrittenAgainAndLandsOnce() {
    WriteChunk chunks = chunks("LOCK_CONFLICT@0:0", false, 1);
    ChunkedTaskWriter writer = new ChunkedTaskWriter(chunks, Workload.OUTPUT, false, 0, 1, 10);
    write(writer, false, 2);
    writer.commit();
    assertEquals(List.of(CommitOutcome.RETRY_LATER), retried);
    assertEquals(2, outputRows(), "LOST_WRITE or DUPLICATE_WRITE");
  }
}

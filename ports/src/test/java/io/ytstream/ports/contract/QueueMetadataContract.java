package io.ytstream.ports.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.ports.TabletTransaction;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The contract of {@code QueueMetadata} ({@code @tablet_count} + {@code get_tablet_infos}). */
public abstract class QueueMetadataContract extends PortContract {

  @Test
  void newQueueHasEmptyPartitionsInIndexOrder() {
    QueueSetup setup = queueWithConsumer("q", 3);

    assertEquals(
        List.of(
            new PartitionBounds(0, 0, 0),
            new PartitionBounds(1, 0, 0),
            new PartitionBounds(2, 0, 0)),
        cluster().queueMetadata().partitions(setup.queue()));
  }

  @Test
  void totalRowCountIsTheExclusiveEndPerPartition() {
    QueueSetup setup = queueWithConsumer("q", 2);
    appendValues(setup.queue(), 0, "v", 4);
    appendValues(setup.queue(), 1, "v", 1);
    appendValues(setup.queue(), 0, "w", 2);

    assertEquals(
        List.of(new PartitionBounds(0, 0, 6), new PartitionBounds(1, 0, 1)),
        cluster().queueMetadata().partitions(setup.queue()));
  }

  @Test
  void uncommittedRowsAreNotCounted() {
    QueueSetup setup = queueWithConsumer("q", 1);
    TabletTransaction tx = cluster().transactions().start(Duration.ofSeconds(30));
    tx.insertRows(setup.queue().path(), List.of(queueRow(0, "pending")));

    assertEquals(0, cluster().queueMetadata().partitions(setup.queue()).get(0).totalRowCount());

    tx.commit();
    assertEquals(1, cluster().queueMetadata().partitions(setup.queue()).get(0).totalRowCount());
  }

  @Test
  void trimmingMovesTheFirstReadableRowAbsolutelyAndNeverBack() {
    QueueSetup setup = queueWithConsumer("q", 1);
    appendValues(setup.queue(), 0, "v", 10);

    fixture.trim(setup.queue().path(), 0, 5);
    assertEquals(
        new PartitionBounds(0, 5, 10), cluster().queueMetadata().partitions(setup.queue()).get(0));

    fixture.trim(setup.queue().path(), 0, 3);
    assertEquals(
        new PartitionBounds(0, 5, 10),
        cluster().queueMetadata().partitions(setup.queue()).get(0),
        "trim is absolute: max(old, new)");

    fixture.trim(setup.queue().path(), 0, 7);
    assertEquals(
        new PartitionBounds(0, 7, 10), cluster().queueMetadata().partitions(setup.queue()).get(0));
  }

  @Test
  void rowIndexesContinueAfterTrimming() {
    QueueSetup setup = queueWithConsumer("q", 1);
    appendValues(setup.queue(), 0, "v", 3);
    fixture.trim(setup.queue().path(), 0, 3);
    appendValues(setup.queue(), 0, "w", 2);

    assertEquals(
        new PartitionBounds(0, 3, 5), cluster().queueMetadata().partitions(setup.queue()).get(0));
    assertEquals(List.of(3L, 4L), rowIndexes(pullToEnd(setup, 0, 0, 10)));
  }

  @Test
  void tabletCountGrowsAfterReshard() {
    QueueSetup setup = queueWithConsumer("q", 1);
    appendValues(setup.queue(), 0, "v", 2);

    fixture.reshard(setup.queue().path(), 3);

    List<PartitionBounds> partitions = cluster().queueMetadata().partitions(setup.queue());
    assertEquals(3, partitions.size());
    assertEquals(new PartitionBounds(0, 0, 2), partitions.get(0), "existing rows stay");
    assertEquals(new PartitionBounds(2, 0, 0), partitions.get(2), "new tablets are empty");

    appendValues(setup.queue(), 2, "new", 1);
    assertEquals(List.of("new0"), values(pullToEnd(setup, 2, 0, 10)));
  }

  @Test
  void missingQueueFailsWith500() {
    assertYtError(
        YtErrorCode.RESOLVE_ERROR,
        () -> cluster().queueMetadata().partitions(queueId(path("absent"))));
  }
}

package io.ytstream.ports.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The contract of {@code ConsumerOffsets}: reads and compare-and-set advances. */
public abstract class ConsumerOffsetsContract extends PortContract {

  @Test
  void freshConsumerHasNoRows() {
    QueueSetup setup = queueWithConsumer("q", 2);

    assertTrue(cluster().consumerOffsets().read(setup.consumer(), setup.queue()).isEmpty());
  }

  /**
   * The server's {@code advance_queue_consumer} checks {@code read} on the consumer and the
   * consumer's registration before it advances, inside a transaction too.
   */
  @Test
  void anAdvanceNeedsReadOnTheConsumerAndItsRegistration() {
    assume(ClusterFixture.Capability.ACCESS_CONTROL);
    QueueSetup setup = queueReadableOnlyBy("alice");

    var unregistered =
        assertYtError(
            YtErrorCode.AUTHORIZATION_ERROR,
            () ->
                fixture
                    .clusterAs("alice")
                    .consumerOffsets()
                    .advance(setup.consumer(), setup.partition(0), OptionalLong.empty(), 1));
    register(setup);
    fixture
        .clusterAs("alice")
        .consumerOffsets()
        .advance(setup.consumer(), setup.partition(0), OptionalLong.empty(), 1);
    var denied =
        assertYtError(
            YtErrorCode.AUTHORIZATION_ERROR,
            () ->
                fixture
                    .clusterAs("bob")
                    .consumerOffsets()
                    .advance(setup.consumer(), setup.partition(0), OptionalLong.of(1), 2));
    var deniedInTransaction =
        assertYtError(
            YtErrorCode.AUTHORIZATION_ERROR,
            () -> {
              var transaction =
                  fixture.clusterAs("bob").transactions().start(java.time.Duration.ofSeconds(30));
              transaction.advanceConsumer(
                  setup.consumer(), setup.partition(0), OptionalLong.of(1), 3);
              transaction.commit();
            });

    assertTrue(
        String.valueOf(unregistered.getMessage()).contains("is not registered for queue"),
        String.valueOf(unregistered.getMessage()));
    assertDeniedRead("bob", denied);
    assertDeniedRead("bob", deniedInTransaction);
    assertEquals(
        1L,
        cluster()
            .consumerOffsets()
            .read(setup.consumer(), setup.queue())
            .getOrDefault(setup.partition(0), -1));
  }

  @Test
  void advanceWithoutOldOffsetIsStored() {
    QueueSetup setup = queueWithConsumer("q", 2);

    cluster()
        .consumerOffsets()
        .advance(setup.consumer(), setup.partition(1), OptionalLong.empty(), 7);

    assertEquals(
        StreamOffsets.ofQueue(setup.queue(), Map.of(1, 7L)),
        cluster().consumerOffsets().read(setup.consumer(), setup.queue()));
  }

  @Test
  void missingRowCountsAsZeroForOldOffset() {
    QueueSetup setup = queueWithConsumer("q", 1);

    cluster()
        .consumerOffsets()
        .advance(setup.consumer(), setup.partition(0), OptionalLong.of(0), 5);

    assertEquals(
        5L,
        cluster()
            .consumerOffsets()
            .read(setup.consumer(), setup.queue())
            .getOrDefault(setup.partition(0), -1));
  }

  @Test
  void matchingOldOffsetAdvances() {
    QueueSetup setup = queueWithConsumer("q", 1);
    cluster()
        .consumerOffsets()
        .advance(setup.consumer(), setup.partition(0), OptionalLong.of(0), 5);

    cluster()
        .consumerOffsets()
        .advance(setup.consumer(), setup.partition(0), OptionalLong.of(5), 9);

    assertEquals(
        9L,
        cluster()
            .consumerOffsets()
            .read(setup.consumer(), setup.queue())
            .getOrDefault(setup.partition(0), -1));
  }

  @Test
  void staleOldOffsetFailsWith3100AndChangesNothing() {
    QueueSetup setup = queueWithConsumer("q", 1);
    cluster()
        .consumerOffsets()
        .advance(setup.consumer(), setup.partition(0), OptionalLong.of(0), 7);

    var error =
        assertYtError(
            YtErrorCode.CONSUMER_OFFSET_CONFLICT,
            () ->
                cluster()
                    .consumerOffsets()
                    .advance(setup.consumer(), setup.partition(0), OptionalLong.of(5), 9));

    assertTrue(
        error
            .getMessage()
            .contains(
                "Offset conflict at partition 0 of consumer "
                    + setup.consumer().path().value()
                    + ": expected offset 5, found offset 7"),
        error.getMessage());
    assertEquals(
        7L,
        cluster()
            .consumerOffsets()
            .read(setup.consumer(), setup.queue())
            .getOrDefault(setup.partition(0), -1));
  }

  @Test
  void nonZeroOldOffsetOnMissingRowFailsWith3100() {
    QueueSetup setup = queueWithConsumer("q", 1);

    var error =
        assertYtError(
            YtErrorCode.CONSUMER_OFFSET_CONFLICT,
            () ->
                cluster()
                    .consumerOffsets()
                    .advance(setup.consumer(), setup.partition(0), OptionalLong.of(3), 9));
    assertTrue(error.getMessage().contains("found offset 0"), error.getMessage());
  }

  @Test
  void backwardAdvanceIsAllowed() {
    QueueSetup setup = queueWithConsumer("q", 1);
    cluster()
        .consumerOffsets()
        .advance(setup.consumer(), setup.partition(0), OptionalLong.of(0), 10);

    cluster()
        .consumerOffsets()
        .advance(setup.consumer(), setup.partition(0), OptionalLong.of(10), 4);

    assertEquals(
        4L,
        cluster()
            .consumerOffsets()
            .read(setup.consumer(), setup.queue())
            .getOrDefault(setup.partition(0), -1));
  }

  @Test
  void negativeNewOffsetIsRejected() {
    QueueSetup setup = queueWithConsumer("q", 1);

    assertThrows(
        IllegalArgumentException.class,
        () ->
            cluster()
                .consumerOffsets()
                .advance(setup.consumer(), setup.partition(0), OptionalLong.empty(), -1));
    assertTrue(cluster().consumerOffsets().read(setup.consumer(), setup.queue()).isEmpty());
  }

  @Test
  void oneConsumerKeepsQueuesApart() {
    YPath consumerPath = path("shared");
    fixture.createConsumer(consumerPath);
    ConsumerId consumer = consumerId(consumerPath);
    QueueId first = queueId(path("first"));
    QueueId second = queueId(path("second"));
    for (QueueId queue : List.of(first, second)) {
      fixture.createOrderedTable(queue.path(), List.of(Columns.value("value", "string")), 2);
      fixture.registerConsumer(queue.path(), consumerPath);
    }

    cluster()
        .consumerOffsets()
        .advance(
            consumer, new io.ytstream.core.model.PartitionId(first, 0), OptionalLong.empty(), 3);
    cluster()
        .consumerOffsets()
        .advance(
            consumer, new io.ytstream.core.model.PartitionId(second, 1), OptionalLong.empty(), 8);

    assertEquals(
        StreamOffsets.ofQueue(first, Map.of(0, 3L)),
        cluster().consumerOffsets().read(consumer, first));
    assertEquals(
        StreamOffsets.ofQueue(second, Map.of(1, 8L)),
        cluster().consumerOffsets().read(consumer, second));
  }

  @Test
  void readReturnsEveryPartitionWithARow() {
    QueueSetup setup = queueWithConsumer("q", 3);
    cluster()
        .consumerOffsets()
        .advance(setup.consumer(), setup.partition(2), OptionalLong.empty(), 4);
    cluster()
        .consumerOffsets()
        .advance(setup.consumer(), setup.partition(0), OptionalLong.empty(), 1);

    assertEquals(
        StreamOffsets.ofQueue(setup.queue(), Map.of(0, 1L, 2, 4L)),
        cluster().consumerOffsets().read(setup.consumer(), setup.queue()));
  }

  @Test
  void missingConsumerFailsWith500() {
    QueueSetup setup = queueWithConsumer("q", 1);
    ConsumerId absent = consumerId(path("absent"));

    assertYtError(
        YtErrorCode.RESOLVE_ERROR, () -> cluster().consumerOffsets().read(absent, setup.queue()));
    assertYtError(
        YtErrorCode.RESOLVE_ERROR,
        () ->
            cluster()
                .consumerOffsets()
                .advance(absent, setup.partition(0), OptionalLong.empty(), 1));
  }
}

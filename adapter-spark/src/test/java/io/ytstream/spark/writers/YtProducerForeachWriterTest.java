package io.ytstream.spark.writers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.ProducerFencedException;
import io.ytstream.application.ServiceColumns;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.InMemoryClusters;
import io.ytstream.ports.ProducerSessionId;
import io.ytstream.ports.TableDescription.Column;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * The producer writer driven as Spark drives a task ({@code open}, {@code process}, {@code close}),
 * over the in-memory cluster's queue producers: replays skipped by the server, fencing, bad setups.
 */
class YtProducerForeachWriterTest {

  private static final AtomicInteger COUNTER = new AtomicInteger();

  private static final List<Column> QUEUE_COLUMNS =
      List.of(
          new Column("id", "int64", false, false), new Column("payload", "string", false, false));

  private static final StructType WITH_POSITION =
      new StructType()
          .add(ServiceColumns.TABLET_INDEX, DataTypes.LongType, false)
          .add(ServiceColumns.ROW_INDEX, DataTypes.LongType, false)
          .add("id", DataTypes.LongType)
          .add("payload", DataTypes.StringType);

  private final String name = "producer-writer" + COUNTER.incrementAndGet();
  private final InMemoryCluster cluster = InMemoryClusters.getOrCreate(name);

  YtProducerForeachWriterTest() {
    cluster.createOrderedTable(YPath.of("//out"), QUEUE_COLUMNS, 2);
    cluster.createQueueProducer(YPath.of("//producer"));
  }

  private YtProducerForeachWriter.Builder builder() {
    return YtProducerForeachWriter.builder()
        .proxy("inmemory:" + name)
        .path("//out")
        .producerPath("//producer")
        .writerId("w");
  }

  private static Row row(long tablet, long rowIndex) {
    long id = tablet * 100 + rowIndex;
    return new GenericRowWithSchema(new Object[] {tablet, rowIndex, id, "p" + id}, WITH_POSITION);
  }

  private List<Long> ids() {
    List<Long> ids = new ArrayList<>();
    cluster.outputTables().readAll(YPath.of("//out")).forEach(r -> ids.add((Long) r.get("id")));
    ids.sort(Long::compare);
    return ids;
  }

  private static List<Long> range(long from, long to) {
    List<Long> out = new ArrayList<>();
    for (long i = from; i < to; i++) {
      out.add(i);
    }
    return out;
  }

  private static void runTask(YtProducerForeachWriter w, long tablet, long from, long to) {
    w.open(0, 0);
    for (long i = from; i < to; i++) {
      w.process(row(tablet, i));
    }
    w.close(null);
  }

  @Test
  void aReplayedTaskIsSkippedByTheServerAndOnlyNewRowsAreWritten() {
    YtProducerForeachWriter w = builder().maxBufferedRows(4).build();
    runTask(w, 0, 0, 10);
    assertEquals(range(0, 10), ids());
    assertEquals(0, w.skippedRowCount());

    // The same task again (a retry, or a restart from the last logged batch), with two more rows.
    runTask(w, 0, 0, 12);
    assertEquals(12, w.pushedRowCount());
    assertEquals(10, w.skippedRowCount(), "rows 0..9 are already in the queue");
    assertEquals(range(0, 12), ids());

    // The session's user_meta records the last source position pushed.
    Object meta =
        cluster
            .queueProducers()
            .createSession(
                new ProducerSessionId(
                    YPath.of("//producer"),
                    YPath.of("//out"),
                    ProducerPushBuffer.sessionId("w", "", 0)))
            .userMeta()
            .orElseThrow();
    assertEquals(11L, ((Map<?, ?>) meta).get("source_row_index"), "" + meta);
    assertEquals(0L, ((Map<?, ?>) meta).get("source_tablet_index"), "" + meta);
  }

  @Test
  void sourcePartitionsHaveSessionsOfTheirOwnAndAFilterLeavesGaps() {
    YtProducerForeachWriter w = builder().build();
    w.open(0, 0);
    for (long i = 0; i < 6; i++) {
      if (i % 3 != 1) {
        w.process(row(0, i));
      }
      w.process(row(1, i));
    }
    w.close(null);
    // Tablet 1's row indexes overlap tablet 0's, but its session is another one.
    List<Long> expected = new ArrayList<>(List.of(0L, 2L, 3L, 5L));
    expected.addAll(range(100, 106));
    assertEquals(expected, ids());
    runTask(w, 1, 0, 6);
    assertEquals(6, w.skippedRowCount());
    assertEquals(expected, ids());
  }

  @Test
  void aFencedWriterSaysAnotherWriterTookOverAndWritesNothing() {
    YtProducerForeachWriter zombie =
        builder().flushInterval(Duration.ofHours(1)).maxBufferedRows(1_000).build();
    zombie.open(0, 0);
    zombie.process(row(0, 0));
    zombie.process(row(0, 1));

    YtProducerForeachWriter successor = builder().build();
    runTask(successor, 0, 0, 3);

    ProducerFencedException fenced =
        assertThrows(ProducerFencedException.class, () -> zombie.close(null));
    assertTrue(
        fenced.getMessage().contains("another writer took over this session"), fenced.getMessage());
    assertTrue(fenced.getMessage().contains("does not retry"), fenced.getMessage());
    assertEquals(range(0, 3), ids());
  }

  @Test
  void rowsWithoutServiceColumnsFailNamingTheOption() {
    YtProducerForeachWriter w = builder().build();
    StructType plain = new StructType().add("id", DataTypes.LongType);
    w.open(0, 0);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> w.process(new GenericRowWithSchema(new Object[] {1L}, plain)));
    w.close(e);
    assertTrue(e.getMessage().contains("include_service_columns"), e.getMessage());
    assertTrue(e.getMessage().contains(ServiceColumns.ROW_INDEX), e.getMessage());
  }

  @Test
  void aColumnTheQueueLacksFailsNamingItAndWritesNothing() {
    YtProducerForeachWriter w = builder().build();
    StructType extra = WITH_POSITION.add("colour", DataTypes.StringType);
    w.open(0, 0);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                w.process(new GenericRowWithSchema(new Object[] {0L, 0L, 1L, "p", "red"}, extra)));
    w.close(e);
    assertTrue(
        e.getMessage().contains("column colour of the query is not a column of //out"),
        e.getMessage());
    assertTrue(e.getMessage().contains("add it to the queue"), e.getMessage());
    assertTrue(ids().isEmpty(), "rows written: " + ids());
  }

  @Test
  void twoOutputRowsOfOneSourceRowFail() {
    YtProducerForeachWriter w = builder().build();
    w.open(0, 0);
    w.process(row(0, 5));
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> w.process(row(0, 5)));
    w.close(e);
    assertTrue(e.getMessage().contains("one output row per source row"), e.getMessage());
  }

  @Test
  void theBuilderChecksTheQueueAndTheProducer() {
    cluster.createSortedTable(
        YPath.of("//sorted"),
        List.of(
            new Column("id", "int64", true, true), new Column("payload", "string", false, false)));
    IllegalArgumentException noProducer =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                YtProducerForeachWriter.builder().proxy("inmemory:" + name).path("//out").build());
    assertTrue(noProducer.getMessage().contains("producerPath("), noProducer.getMessage());

    IllegalArgumentException sortedOut =
        assertThrows(IllegalArgumentException.class, () -> builder().path("//sorted").build());
    assertTrue(sortedOut.getMessage().contains("builder path"), sortedOut.getMessage());
    assertTrue(sortedOut.getMessage().contains("ordered queue"), sortedOut.getMessage());

    IllegalArgumentException notAProducer =
        assertThrows(
            IllegalArgumentException.class, () -> builder().producerPath("//sorted").build());
    assertTrue(notAProducer.getMessage().contains("producerPath"), notAProducer.getMessage());
    assertTrue(notAProducer.getMessage().contains("queue_producer"), notAProducer.getMessage());

    IllegalArgumentException missing =
        assertThrows(
            IllegalArgumentException.class, () -> builder().producerPath("//nothing").build());
    assertTrue(missing.getMessage().contains("//nothing"), missing.getMessage());
  }

  @Test
  void aFlushLargerThanATabletTakesInOneTransactionIsRefusedAtBuild() {
    IllegalArgumentException tooMany =
        assertThrows(
            IllegalArgumentException.class, () -> builder().maxBufferedRows(100_001).build());
    assertTrue(tooMany.getMessage().contains("maxBufferedRows(100001)"), tooMany.getMessage());
    assertTrue(
        tooMany.getMessage().contains("spark.yt.write.maxRowsPerTabletPerTransaction"),
        tooMany.getMessage());
    assertTrue(
        tooMany.getMessage().contains("maxBufferedRows(100000) or less"), tooMany.getMessage());

    builder().maxBufferedRows(100_000).build();
    IllegalArgumentException underALowerLimit =
        assertThrows(
            IllegalArgumentException.class,
            () -> YtProducerForeachWriter.checkFlushFitsATablet(501, 500));
    assertTrue(
        underALowerLimit.getMessage().contains("maxBufferedRows(500) or less"),
        underALowerLimit.getMessage());
  }

  @Test
  void withoutAQueryOrAWriterIdTheTaskSaysWhatToSet() {
    YtProducerForeachWriter w =
        YtProducerForeachWriter.builder()
            .proxy("inmemory:" + name)
            .path("//out")
            .producerPath("//producer")
            .build();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> w.open(0, 0));
    assertTrue(e.getMessage().contains("writerId("), e.getMessage());
  }
}

package io.ytstream.benchmarks.latency;

import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.ports.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Appends rows {@code (id, sent_us)} at a steady rate from its own thread: about every millisecond
 * it appends, in one request, the rows due since the last append, each stamped with the time just
 * before that request ({@link LatencyClock}). Row g goes to partition {@code g % partitions}. The
 * same pacing feeds a YTsaurus queue, in-process in the cluster's store (with the emulator, in the
 * emulator's JVM: {@link StoreMain}, so producing costs the readers no HTTP round trips), or a
 * Kafka topic, whose value is the row's JSON.
 */
final class QueueProducer implements LatencyStore.Producer {

  /** Appends rows {@code [from, to)}, stamped {@code nowMicros}; closed when the producer stops. */
  interface Appender extends AutoCloseable {
    void append(long from, long to, long nowMicros);

    @Override
    default void close() {}
  }

  private final String target;
  private final Appender appender;
  private final double rate;
  private final Thread thread;
  private volatile boolean stopping;
  private volatile long fromMicros = Long.MAX_VALUE;
  private volatile long toMicros = Long.MAX_VALUE;
  private long inWindow;
  private volatile Throwable failure;

  private QueueProducer(String target, Appender appender, double rate) {
    this.target = target;
    this.appender = appender;
    this.rate = rate;
    this.thread = new Thread(this::run, "latency-producer " + target);
    thread.setDaemon(true);
  }

  /** A started producer appending to {@code queue} of {@code cluster}. */
  static QueueProducer toQueue(InMemoryCluster cluster, YPath queue, int partitions, int rate) {
    return start(
        queue.value(),
        (from, to, now) -> {
          List<Row> rows = new ArrayList<>((int) (to - from));
          for (long g = from; g < to; g++) {
            rows.add(
                Row.of("$tablet_index", g % partitions, "id", g, LatencyRecorder.SENT_COLUMN, now));
          }
          cluster.outputTables().append(queue, rows);
        },
        rate);
  }

  /**
   * A started producer sending to {@code topic} at {@code bootstrap}, each row at once ({@code
   * linger.ms=0}, {@code acks=1}), as the queue gets each millisecond's rows in one request.
   */
  static QueueProducer toTopic(String bootstrap, String topic, int partitions, int rate) {
    KafkaProducer<String, String> kafka =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ProducerConfig.ACKS_CONFIG,
                "1",
                ProducerConfig.LINGER_MS_CONFIG,
                0,
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                false),
            new StringSerializer(),
            new StringSerializer());
    AtomicReference<Exception> failed = new AtomicReference<>();
    return start(
        topic,
        new Appender() {
          @Override
          public void append(long from, long to, long now) {
            if (failed.get() != null) {
              throw new IllegalStateException("Kafka refused a row", failed.get());
            }
            for (long g = from; g < to; g++) {
              String json =
                  "{\"id\":" + g + ",\"" + LatencyRecorder.SENT_COLUMN + "\":" + now + "}";
              var unused =
                  kafka.send(
                      new ProducerRecord<>(topic, (int) (g % partitions), null, json),
                      (metadata, e) -> {
                        if (e != null) {
                          failed.compareAndSet(null, e);
                        }
                      });
            }
          }

          @Override
          public void close() {
            kafka.close();
          }
        },
        rate);
  }

  /** A started producer handing rows to {@code appender}, paced as every other producer. */
  static QueueProducer start(String target, Appender appender, double rate) {
    QueueProducer p = new QueueProducer(target, appender, rate);
    p.thread.start();
    return p;
  }

  @Override
  public void window(long from, long to) {
    toMicros = to;
    fromMicros = from;
  }

  private void run() {
    long start = LatencyClock.nowMicros();
    long sent = 0;
    try {
      while (!stopping) {
        long now = LatencyClock.nowMicros();
        long due = (long) ((now - start) * rate / 1_000_000.0);
        if (due > sent) {
          appender.append(sent, due, now);
          if (now >= fromMicros && now < toMicros) {
            synchronized (this) {
              inWindow += due - sent;
            }
          }
          sent = due;
        }
        LockSupport.parkNanos(1_000_000);
      }
    } catch (RuntimeException e) {
      failure = e;
    }
  }

  @Override
  public long stop() {
    close();
    synchronized (this) {
      return inWindow;
    }
  }

  @Override
  public void close() {
    stopping = true;
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    appender.close();
    if (failure != null) {
      throw new IllegalStateException("the producer of " + target + " failed", failure);
    }
  }
}

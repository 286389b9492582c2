package io.ytstream.benchmarks.latency;

import io.ytstream.core.model.YPath;

/**
 * Where a latency run's queue, consumer and output table live, and who appends to the queue: the
 * in-memory cluster in the benchmark's JVM ({@link InProcessStore}), or the emulator in a JVM of
 * its own ({@link ChildProcessStore}), as a YTsaurus cluster is in its own processes.
 */
interface LatencyStore extends AutoCloseable {

  /** What {@code yt.proxy} / the writers' {@code proxy} are set to. */
  String address();

  /** Creates the queue (an ordered table {@code (id, sent_us)}) and a vital consumer of it. */
  void createQueue(YPath queue, YPath consumer, int partitions);

  /** Creates an output table of {@code kind}; an ordered one with {@code partitions} tablets. */
  void createOutput(YPath table, OutputTable kind, int partitions);

  /** Starts appending rows {@code (id, sent_us)} to {@code queue} at {@code rate} rows/s. */
  Producer startProducer(YPath queue, int partitions, int rate);

  /**
   * Starts sending rows {@code (id, sent_us)} as JSON to the Kafka {@code topic} at {@code rate}
   * rows/s, paced as {@link #startProducer}, from the same JVM as that producer.
   */
  Producer startKafkaProducer(String bootstrap, String topic, int partitions, int rate);

  /**
   * Removes {@code directory} with everything under it; a store in its own JVM also collects there.
   */
  void forget(YPath directory);

  @Override
  void close();

  /** A running producer: counts the rows it sent inside a window, until closed. */
  interface Producer extends AutoCloseable {

    /** Counts rows sent in {@code [fromMicros, toMicros)} of {@link LatencyClock} from now on. */
    void window(long fromMicros, long toMicros);

    /** Stops appending; returns how many rows were sent inside the window. */
    long stop();

    @Override
    void close();
  }
}

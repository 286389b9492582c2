package io.ytstream.benchmarks.latency;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The stop-the-world collections of this JVM, from the collectors' notifications: a send-to-sink
 * latency includes any pause that fell between send and sink, and in this harness the store (the
 * in-memory cluster or the emulator's) lives in the same JVM as Spark, so the table reports the
 * pauses of each window beside the latencies. Collections named as concurrent cycles ({@code ZGC
 * Cycles}, {@code G1 Concurrent GC}) are not pauses and are left out.
 */
final class GcPauses {

  /** One pause: its start on {@link LatencyClock} and its length. */
  record Pause(long startMicros, long micros, String collector) {}

  private final List<Pause> pauses = new ArrayList<>();
  private final long jvmStartMillis = ManagementFactory.getRuntimeMXBean().getStartTime();

  /** Starts listening to every collector of this JVM. */
  static GcPauses listen() {
    GcPauses p = new GcPauses();
    NotificationListener listener = (n, handback) -> p.notified(n.getType(), n.getUserData());
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(listener, null, null);
      }
    }
    return p;
  }

  private void notified(String type, Object data) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(type)
        || !(data instanceof CompositeData cd)) {
      return;
    }
    GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from(cd);
    String name = info.getGcName();
    if (name.contains("Cycles") || name.contains("Concurrent")) {
      return;
    }
    long start = (jvmStartMillis + info.getGcInfo().getStartTime()) * 1000;
    long length = info.getGcInfo().getDuration() * 1000;
    synchronized (this) {
      pauses.add(new Pause(start, length, name));
    }
  }

  /** The pauses that started in {@code [fromMicros, toMicros)}, in order. */
  synchronized List<Pause> between(long fromMicros, long toMicros) {
    List<Pause> in = new ArrayList<>();
    for (Pause p : pauses) {
      if (p.startMicros() >= fromMicros && p.startMicros() < toMicros) {
        in.add(p);
      }
    }
    return in;
  }
}

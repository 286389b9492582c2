package io.ytstream.inmemory;

import com.google.common.collect.ImmutableList;
import io.ytstream.core.model.YPath;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which consumers may pull which queues ({@code //sys/queue_agents/consumer_registrations}). Unlike
 * a real cluster there is no cache delay: a registration is visible at once.
 */
final class Registrations {

  /** Keyed by (queue, consumer) so listings come out sorted. */
  private final Map<List<YPath>, ConsumerRegistration> byKey =
      new TreeMap<>(
          (a, b) -> {
            int byQueue = a.get(0).compareTo(b.get(0));
            return byQueue != 0 ? byQueue : a.get(1).compareTo(b.get(1));
          });

  void register(YPath queue, YPath consumer, boolean vital) {
    byKey.put(List.of(queue, consumer), new ConsumerRegistration(queue, consumer, vital));
  }

  boolean unregister(YPath queue, YPath consumer) {
    return byKey.remove(List.of(queue, consumer)) != null;
  }

  boolean isRegistered(YPath queue, YPath consumer) {
    return byKey.containsKey(List.of(queue, consumer));
  }

  ImmutableList<ConsumerRegistration> list() {
    return ImmutableList.copyOf(byKey.values());
  }
}

package io.ytstream.emulator;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How many commands each proxy ran (or, for {@link YtEmulator#refusedCounts}, refused), by command
 * name: lets a test assert where a client sent its heavy requests (spread over the healthy proxies,
 * few to a banned one).
 */
public final class ProxyRequestCounts {

  private final Map<Integer, Map<String, AtomicLong>> counts = new ConcurrentHashMap<>();

  void record(int proxy, String command) {
    counts
        .computeIfAbsent(proxy, p -> new ConcurrentHashMap<>())
        .computeIfAbsent(command, c -> new AtomicLong())
        .incrementAndGet();
  }

  /** Commands named {@code command} that proxy {@code proxy} (0-based, as in proxyUrls) ran. */
  public long count(int proxy, String command) {
    AtomicLong count = counts.getOrDefault(proxy, Map.of()).get(command);
    return count == null ? 0 : count.get();
  }

  /** Every command that proxy {@code proxy} ran, by name, sorted. */
  public Map<String, Long> byCommand(int proxy) {
    Map<String, Long> out = new TreeMap<>();
    counts.getOrDefault(proxy, Map.of()).forEach((command, n) -> out.put(command, n.get()));
    return out;
  }

  /** Forgets every count, e.g. before the part of a test that is asserted. */
  public void reset() {
    counts.clear();
  }

  @Override
  public String toString() {
    Map<Integer, Map<String, Long>> out = new TreeMap<>();
    counts.keySet().forEach(p -> out.put(p, byCommand(p)));
    return out.toString();
  }
}

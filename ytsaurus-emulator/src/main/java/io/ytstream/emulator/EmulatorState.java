package io.ytstream.emulator;

import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;
import io.ytstream.core.model.YtTimestamps;
import io.ytstream.inmemory.AccessDeniedException;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.ports.TimeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the emulator keeps besides the in-memory cluster: the sticky pools of its proxies and the
 * tables created over HTTP that are not mounted yet (a real cluster creates dynamic tables
 * unmounted; tables made through the in-memory admin API count as mounted).
 */
final class EmulatorState {

  private final InMemoryCluster cluster;
  private final StickyPool pool;
  private final int rowsPerStore;
  private final Set<YPath> unmounted = ConcurrentHashMap.newKeySet();
  private final AtomicLong nodeCounter = new AtomicLong();

  EmulatorState(InMemoryCluster cluster, TimeSource clock, int rowsPerStore) {
    this.rowsPerStore = rowsPerStore;
    this.pool = new StickyPool(clock);
    this.cluster = cluster;
  }

  InMemoryCluster cluster() {
    return cluster;
  }

  String clusterName() {
    return cluster.name();
  }

  /** Rows per store of a queue tablet (see {@link EmulatorOptions#rowsPerStore}). */
  int rowsPerStore() {
    return rowsPerStore;
  }

  StickyPool pool() {
    return pool;
  }

  boolean isMounted(YPath table) {
    return !unmounted.contains(table);
  }

  void markUnmounted(YPath table) {
    unmounted.add(table);
  }

  void markMounted(YPath table) {
    unmounted.remove(table);
  }

  /**
   * Reads and writes of an unmounted table fail with 1702 TabletNotMounted ({@code
   * yt/yt/client/tablet_client/public.h}).
   */
  void requireMounted(YPath table) {
    if (unmounted.contains(table)) {
      throw CommandError.of(
          1702, "Tablet of table " + table + " is not mounted (run mount_table first)");
    }
  }

  /** A fresh object id in the GUID-like form YTsaurus prints ({@code a-b-c-d}, hex parts). */
  String newNodeId() {
    long n = nodeCounter.incrementAndGet();
    return Long.toHexString(n) + "-" + Long.toHexString(cluster.time().nowMillis()) + "-12f-e0de";
  }

  /**
   * A timestamp for {@code barrier_timestamp}: every commit so far is at or below it, in the
   * server's hybrid form ({@link YtTimestamps}), as the commit timestamps in {@code $timestamp}.
   */
  long timestamp() {
    return Math.max(
        YtTimestamps.lowestAtEpochMillis(cluster.time().nowMillis()), cluster.lastTimestamp());
  }

  /**
   * An in-memory cluster error as the wire error: its code and message, inner codes nested. A
   * denied permission check carries the {@code user} and {@code permission} attributes, as the
   * server's AuthorizationError does ({@code yt/yt/client/api/security_client.cpp}).
   */
  static CommandError toCommandError(YtException e) {
    if (e instanceof AccessDeniedException denied) {
      // TCheckPermissionResult::ToError (yt/yt/client/api/security_client.cpp): user and
      // permission always, denied_by and denied_for when a deny entry decided.
      Map<String, String> attributes = new java.util.LinkedHashMap<>();
      attributes.put("user", denied.user());
      attributes.put("permission", denied.permission());
      denied.deniedBy().ifPresent(id -> attributes.put("denied_by", id));
      denied.deniedFor().ifPresent(id -> attributes.put("denied_for", id));
      return new CommandError(
          400, denied.code(), denied.serverMessage(), List.of(), Map.copyOf(attributes));
    }
    String message = e.getMessage();
    String suffix = " (code " + e.code() + ")";
    if (message != null && message.endsWith(suffix)) {
      message = message.substring(0, message.length() - suffix.length());
    }
    List<CommandError> inner = new ArrayList<>();
    for (int code : e.codes()) {
      if (code != e.code()) {
        inner.add(CommandError.of(code, "inner error " + code));
      }
    }
    return new CommandError(400, e.code(), message, inner);
  }
}

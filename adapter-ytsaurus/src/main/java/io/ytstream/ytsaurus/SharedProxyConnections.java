package io.ytstream.ytsaurus;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One {@link ProxyConnection} per configuration (address, token, timeouts, trust: the whole {@link
 * YtsaurusClientConfig}) per JVM, counted by reference. Spark connects once per task, per file
 * system instance and per stream; without sharing each would start its own HTTP client, idle-check
 * thread and {@code //sys/@cluster_name} request. When the last handle is released the connection
 * stays open for {@link #IDLE_MILLIS} for the next task, then closes. Its threads are daemons, so
 * an idle connection never keeps a JVM from exiting.
 */
final class SharedProxyConnections {

  /** How long an unused connection waits for its next handle before it closes. */
  static final long IDLE_MILLIS = 30_000;

  private static final Map<YtsaurusClientConfig, Entry> OPEN = new HashMap<>();

  private SharedProxyConnections() {}

  private static final class Entry {
    final ProxyConnection connection;
    int references;
    long generation;

    Entry(ProxyConnection connection) {
      this.connection = connection;
    }
  }

  /** The shared connection for {@code config}, opened if there is none; pair with release. */
  static ProxyConnection acquire(YtsaurusClientConfig config) {
    synchronized (OPEN) {
      Entry entry = OPEN.get(config);
      if (entry != null) {
        if (entry.references == 0) {
          // Idle until now: the proxies may have changed meanwhile, so ask /hosts again.
          entry.connection.heavyProxies().invalidate();
        }
        entry.references++;
        entry.generation++;
        return entry.connection;
      }
    }
    // Opened outside the lock: it reads //sys/@cluster_name, which may take a request timeout.
    ProxyConnection opened = ProxyConnection.open(config);
    synchronized (OPEN) {
      Entry raced = OPEN.get(config);
      if (raced != null) {
        opened.close();
        raced.references++;
        raced.generation++;
        return raced.connection;
      }
      Entry entry = new Entry(opened);
      entry.references = 1;
      OPEN.put(config, entry);
      return opened;
    }
  }

  static void release(ProxyConnection connection) {
    synchronized (OPEN) {
      Entry entry = OPEN.get(connection.config());
      if (entry == null || entry.connection != connection) {
        connection.close();
        return;
      }
      entry.references--;
      if (entry.references > 0) {
        return;
      }
      long idleSince = ++entry.generation;
      try {
        // Nothing waits for the idle check; it only closes the connection.
        var unused =
            connection
                .scheduler()
                .schedule(
                    () -> closeIfStillIdle(connection, idleSince),
                    IDLE_MILLIS,
                    TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException e) {
        OPEN.remove(connection.config());
        connection.close();
      }
    }
  }

  private static void closeIfStillIdle(ProxyConnection connection, long idleSince) {
    synchronized (OPEN) {
      Entry entry = OPEN.get(connection.config());
      if (entry == null
          || entry.connection != connection
          || entry.references > 0
          || entry.generation != idleSince) {
        return;
      }
      OPEN.remove(connection.config());
    }
    connection.close();
  }

  /** How many handles use the shared connection for {@code config} (0 when none is open). */
  static int references(YtsaurusClientConfig config) {
    synchronized (OPEN) {
      Entry entry = OPEN.get(config);
      return entry == null ? 0 : entry.references;
    }
  }

  /** Whether a connection for {@code config} is open (used or idle). */
  static boolean isOpen(YtsaurusClientConfig config) {
    synchronized (OPEN) {
      return OPEN.containsKey(config);
    }
  }
}

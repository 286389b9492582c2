package io.ytstream.inmemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.ports.spi.ClusterConnector;
import io.ytstream.ports.spi.ClusterConnectors;
import io.ytstream.ports.spi.ConnectionSettings;
import io.ytstream.ports.spi.YtCluster;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class InMemoryConnectorTest {

  @AfterEach
  void forgetClusters() {
    InMemoryClusters.remove("connector-test");
    InMemoryClusters.remove("registered-test");
  }

  @Test
  void serviceLoaderFindsTheConnectorAndNamesMapToOneCluster() {
    YtCluster first =
        ClusterConnectors.connect("inmemory:connector-test", ConnectionSettings.empty());
    YtCluster second =
        ClusterConnectors.connect("inmemory:connector-test", ConnectionSettings.empty());

    assertTrue(first instanceof InMemoryCluster);
    assertSame(first, second);
    assertSame(first, InMemoryClusters.find("connector-test").orElseThrow());
  }

  @Test
  void aRegisteredClusterIsTheOneConnectedTo() {
    InMemoryCluster mine = new InMemoryCluster("registered-test", new ManualClock());
    InMemoryClusters.register(mine);

    assertSame(
        mine, ClusterConnectors.connect("inmemory:registered-test", ConnectionSettings.empty()));
    assertThrows(
        IllegalStateException.class,
        () -> InMemoryClusters.register(new InMemoryCluster("registered-test", new ManualClock())));
  }

  @Test
  void theConnectorsOfTheOwnClassLoaderAreLookedUpOnceAndOthersEachTime() throws Exception {
    ClassLoader own = ClusterConnectors.class.getClassLoader();
    List<ClusterConnector> first = ClusterConnectors.available(own);
    assertTrue(first.stream().anyMatch(c -> c.name().equals("inmemory")), first.toString());
    assertSame(first, ClusterConnectors.available(own), "kept, not looked up per task");
    try (URLClassLoader child = new URLClassLoader(new URL[0], own)) {
      List<ClusterConnector> viaChild = ClusterConnectors.available(child);
      assertNotSame(viaChild, ClusterConnectors.available(child), "another loader: looked up");
      assertEquals(
          first.stream().map(ClusterConnector::name).toList(),
          viaChild.stream().map(ClusterConnector::name).toList());
    }
  }

  @Test
  void acceptsOnlyInMemoryAddresses() {
    InMemoryConnector connector = new InMemoryConnector();

    assertTrue(connector.accepts("inmemory:demo"));
    assertFalse(connector.accepts("inmemory:"));
    assertFalse(connector.accepts("http://localhost:8000"));
    assertFalse(connector.accepts("inmemory://x"));
    assertThrows(
        IllegalArgumentException.class,
        () -> connector.connect("http://localhost:8000", ConnectionSettings.empty()));
  }
}

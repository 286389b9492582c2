package io.ytstream.inmemory;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.ports.spi.ClusterConnectors;
import io.ytstream.ports.spi.ConnectionSettings;
import io.ytstream.ports.spi.YtCluster;
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

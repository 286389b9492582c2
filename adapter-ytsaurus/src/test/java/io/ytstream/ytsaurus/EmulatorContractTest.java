package io.ytstream.ytsaurus;

import io.ytstream.ports.contract.CheckpointStoreContract;
import io.ytstream.ports.contract.ClusterFixture;
import io.ytstream.ports.contract.ConsumerOffsetsContract;
import io.ytstream.ports.contract.OutputTablesContract;
import io.ytstream.ports.contract.QueueMetadataContract;
import io.ytstream.ports.contract.QueuePartitionReaderContract;
import io.ytstream.ports.contract.TableMetadataContract;
import io.ytstream.ports.contract.TabletTransactionContract;
import org.junit.jupiter.api.Nested;

/** The port contract suite, run against adapter-ytsaurus over HTTP to the emulator. */
class EmulatorContractTest {

  static final boolean HTTPS = false;

  @Nested
  class QueuePartitionReader extends QueuePartitionReaderContract {
    @Override
    protected ClusterFixture newFixture() {
      return new EmulatorClusterFixture(HTTPS);
    }
  }

  @Nested
  class QueueMetadata extends QueueMetadataContract {
    @Override
    protected ClusterFixture newFixture() {
      return new EmulatorClusterFixture(HTTPS);
    }
  }

  @Nested
  class ConsumerOffsets extends ConsumerOffsetsContract {
    @Override
    protected ClusterFixture newFixture() {
      return new EmulatorClusterFixture(HTTPS);
    }
  }

  @Nested
  class TabletTransactions extends TabletTransactionContract {
    @Override
    protected ClusterFixture newFixture() {
      return new EmulatorClusterFixture(HTTPS);
    }
  }

  @Nested
  class OutputTables extends OutputTablesContract {
    @Override
    protected ClusterFixture newFixture() {
      return new EmulatorClusterFixture(HTTPS);
    }
  }

  @Nested
  class TableMetadata extends TableMetadataContract {
    @Override
    protected ClusterFixture newFixture() {
      return new EmulatorClusterFixture(HTTPS);
    }
  }

  @Nested
  class CheckpointStore extends CheckpointStoreContract {
    @Override
    protected ClusterFixture newFixture() {
      return new EmulatorClusterFixture(HTTPS);
    }
  }
}

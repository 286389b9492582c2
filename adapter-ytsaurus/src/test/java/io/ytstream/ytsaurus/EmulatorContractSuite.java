package io.ytstream.ytsaurus;

import io.ytstream.ports.contract.CheckpointStoreContract;
import io.ytstream.ports.contract.ClusterFixture;
import io.ytstream.ports.contract.ConsumerOffsetsContract;
import io.ytstream.ports.contract.OutputTablesContract;
import io.ytstream.ports.contract.QueueMetadataContract;
import io.ytstream.ports.contract.QueuePartitionReaderContract;
import io.ytstream.ports.contract.QueueProducersContract;
import io.ytstream.ports.contract.StaticTableAppendsContract;
import io.ytstream.ports.contract.TableMetadataContract;
import io.ytstream.ports.contract.TabletTransactionContract;
import org.junit.jupiter.api.Nested;

/**
 * The port contract suite against adapter-ytsaurus talking to the emulator; a subclass says whether
 * over HTTP or HTTPS.
 */
abstract class EmulatorContractSuite {

  /** Whether the emulator and the adapter speak HTTPS. */
  abstract boolean https();

  @Nested
  class QueuePartitionReader extends QueuePartitionReaderContract {
    @Override
    protected ClusterFixture newFixture() {
      return new EmulatorClusterFixture(https());
    }
  }

  @Nested
  class QueueMetadata extends QueueMetadataContract {
    @Override
    protected ClusterFixture newFixture() {
      return new EmulatorClusterFixture(https());
    }
  }

  @Nested
  class ConsumerOffsets extends ConsumerOffsetsContract {
    @Override
    protected ClusterFixture newFixture() {
      return new EmulatorClusterFixture(https());
    }
  }

  @Nested
  class TabletTransactions extends TabletTransactionContract {
    @Override
    protected ClusterFixture newFixture() {
      return new EmulatorClusterFixture(https());
    }
  }

  @Nested
  class OutputTables extends OutputTablesContract {
    @Override
    protected ClusterFixture newFixture() {
      return new EmulatorClusterFixture(https());
    }
  }

  @Nested
  class TableMetadata extends TableMetadataContract {
    @Override
    protected ClusterFixture newFixture() {
      return new EmulatorClusterFixture(https());
    }
  }

  @Nested
  class CheckpointStore extends CheckpointStoreContract {
    @Override
    protected ClusterFixture newFixture() {
      return new EmulatorClusterFixture(https());
    }
  }

  @Nested
  class StaticTableAppends extends StaticTableAppendsContract {
    @Override
    protected ClusterFixture newFixture() {
      return new EmulatorClusterFixture(https());
    }
  }

  @Nested
  class QueueProducers extends QueueProducersContract {
    @Override
    protected ClusterFixture newFixture() {
      return new EmulatorClusterFixture(https());
    }
  }
}

package io.ytstream.inmemory;

/**
 * Port operations a fault can be scheduled on. Each names one call of one port, so a schedule reads
 * like the protocol it breaks ("the second COMMIT fails with 1700").
 */
public enum ClusterOperation {
  /** {@code QueuePartitionReader.pull}. */
  PULL(Effect.READ),
  /** {@code QueueMetadata.partitions}. */
  PARTITIONS(Effect.READ),
  /** {@code ConsumerOffsets.read} and {@code TabletTransaction.readConsumer}. */
  READ_CONSUMER(Effect.READ),
  /** {@code ConsumerOffsets.advance}: a transaction of its own, so it commits. */
  ADVANCE(Effect.COMMIT),
  /** {@code TabletTransaction.advanceConsumer}: buffered in the transaction. */
  TX_ADVANCE(Effect.WRITE),
  /** {@code TabletTransactions.start}. */
  START_TX(Effect.WRITE),
  /** {@code TabletTransactions.attach}. */
  ATTACH_TX(Effect.READ),
  /** {@code TabletTransaction.insertRows}. */
  INSERT(Effect.WRITE),
  /** {@code TabletTransaction.deleteRows}. */
  DELETE(Effect.WRITE),
  /** {@code TabletTransaction.ping}. */
  PING(Effect.WRITE),
  /** {@code TabletTransaction.commit}. */
  COMMIT(Effect.COMMIT),
  /** {@code TabletTransaction.abort}. */
  ABORT(Effect.WRITE),
  /** {@code OutputTables.append}: a transaction of its own. */
  OUTPUT_APPEND(Effect.COMMIT),
  /** {@code OutputTables.upsert}: a transaction of its own. */
  OUTPUT_UPSERT(Effect.COMMIT),
  /** {@code OutputTables.readAll}. */
  OUTPUT_READ(Effect.READ),
  /** {@code QueueProducers.createSession} and {@code removeSession}: transactions of their own. */
  PRODUCER_SESSION(Effect.COMMIT),
  /** {@code QueueProducers.push} without a transaction: a transaction of its own. */
  PRODUCER_PUSH(Effect.COMMIT),
  /** {@code QueueProducers.push} inside a tablet transaction: buffered in it. */
  TX_PRODUCER_PUSH(Effect.WRITE),
  /** {@code TableMetadata.describe}. */
  DESCRIBE(Effect.READ),
  /** {@code CheckpointStore.createDirectories}. */
  CHECKPOINT_MKDIRS(Effect.WRITE),
  /** {@code CheckpointStore.writeFile}. */
  CHECKPOINT_WRITE(Effect.WRITE),
  /** {@code CheckpointStore.readFile}. */
  CHECKPOINT_READ(Effect.READ),
  /** {@code CheckpointStore.rename}. */
  CHECKPOINT_RENAME(Effect.WRITE),
  /** {@code CheckpointStore.list}. */
  CHECKPOINT_LIST(Effect.READ),
  /** {@code CheckpointStore.delete}. */
  CHECKPOINT_DELETE(Effect.WRITE),
  /** {@code CheckpointStore.status}. */
  CHECKPOINT_STATUS(Effect.READ),
  /** {@code StaticTableAppends.start}: a master transaction. */
  MASTER_START(Effect.WRITE),
  /** {@code StaticTableAppends.attach}. */
  MASTER_ATTACH(Effect.READ),
  /** {@code MasterTransaction.append}: staged in the master transaction. */
  STATIC_APPEND(Effect.WRITE),
  /** {@code StaticTableAppends.readAll} and {@code MasterTransaction.readAll}. */
  STATIC_READ(Effect.READ),
  /** {@code StaticTableAppends.attribute} and {@code MasterTransaction.attribute}. */
  ATTRIBUTE_READ(Effect.READ),
  /** {@code MasterTransaction.setAttribute}: staged in the master transaction. */
  ATTRIBUTE_SET(Effect.WRITE),
  /** {@code MasterTransaction.ping}. */
  MASTER_PING(Effect.WRITE),
  /** {@code MasterTransaction.commit}. */
  MASTER_COMMIT(Effect.COMMIT),
  /** {@code MasterTransaction.abort}. */
  MASTER_ABORT(Effect.WRITE),
  /** {@code StaticTableAppends.describe}. */
  TABLE_NODE_DESCRIBE(Effect.READ);

  /** What a call changes, which decides the fault kinds that make sense for it. */
  enum Effect {
    READ,
    WRITE,
    COMMIT
  }

  private final Effect effect;

  ClusterOperation(Effect effect) {
    this.effect = effect;
  }

  /** True when the call changes state, so "applied, then failed" is a meaningful fault. */
  public boolean mutates() {
    return effect != Effect.READ;
  }

  /** True when the call commits a transaction, so its outcome can be unknown. */
  public boolean commits() {
    return effect == Effect.COMMIT;
  }
}

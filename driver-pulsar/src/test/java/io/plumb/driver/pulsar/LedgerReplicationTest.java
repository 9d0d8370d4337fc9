package io.plumb.driver.pulsar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Reading a ledger's metadata text as the broker's internal stats give it. */
class LedgerReplicationTest {

  @Test
  void readsQuorumsBookiesAndTheCurrentEnsemble() {
    LedgerReplication ledger =
        LedgerReplication.parse(
                "LedgerMetadata{formatVersion=3, ensembleSize=3, writeQuorumSize=3,"
                    + " ackQuorumSize=2, state=OPEN, digestType=CRC32C, password=base64:,"
                    + " ensembles={0=[127.0.0.1:3182, 127.0.0.1:3181, 127.0.0.1:3183]},"
                    + " customMetadata={}}")
            .orElseThrow();
    assertEquals("ensemble=3 writeQuorum=3 ackQuorum=2", ledger.quorums());
    assertEquals(Set.of("127.0.0.1:3181", "127.0.0.1:3182", "127.0.0.1:3183"), ledger.bookies());
    assertEquals("127.0.0.1:3182", ledger.firstBookie());
  }

  /** After a bookie failed during a write, the ledger has a later ensemble: that one is current. */
  @Test
  void theLastEnsembleIsTheCurrentOne() {
    LedgerReplication ledger =
        LedgerReplication.parse(
                "LedgerMetadata{formatVersion=3, ensembleSize=1, writeQuorumSize=1,"
                    + " ackQuorumSize=1, state=OPEN, ensembles={0=[127.0.0.1:3181],"
                    + " 120=[127.0.0.1:3183]}, customMetadata={}}")
            .orElseThrow();
    assertEquals(List.of("127.0.0.1:3183"), ledger.lastEnsemble());
    assertEquals("127.0.0.1:3183", ledger.firstBookie());
    assertEquals(Set.of("127.0.0.1:3181", "127.0.0.1:3183"), ledger.bookies());
  }

  @Test
  void metadataWithoutEnsemblesReadsAsNothing() {
    assertTrue(LedgerReplication.parse("LedgerMetadata{ensembleSize=3}").isEmpty());
    assertTrue(LedgerReplication.parse(null).isEmpty());
  }
}

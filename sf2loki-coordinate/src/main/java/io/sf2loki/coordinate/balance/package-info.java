/**
 * Balancing several shards (one lease each) over several replicas: the quota {@code ceil(M / N) +
 * coordinate.shard_slack} ({@link io.sf2loki.coordinate.balance.ShardQuota}), the roster of live
 * replicas it counts {@code N} from ({@link io.sf2loki.coordinate.balance.Roster}, one object
 * beside the leases) and the rendezvous order that decides which shards a replica prefers ({@link
 * io.sf2loki.coordinate.balance.Rendezvous}). Used by the lease coordinators of a process that
 * leads several orgs; a single-org deployment never creates any of it.
 */
package io.sf2loki.coordinate.balance;

/**
 * The keys the Listener planners use, taken from the wire contract in `domain/constants.ts`
 * (re-exported here so the planners' vocabulary is one import).
 */
export {
  DEFAULT_CLUSTER_DOMAIN,
  FieldManagers,
  LISTENER_API_VERSION,
  mountLabelKey,
  operatorLabels,
  PV_LABEL_LISTENER_NAME,
  PV_LABEL_LISTENER_NAMESPACE,
  TOPOLOGY_KEY_HOSTNAME
} from "../constants.ts"

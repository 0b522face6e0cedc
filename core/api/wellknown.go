package api

// The taint keys Kubernetes itself puts on nodes, as k8s.io/api's core/v1/well_known_taints.go
// names them. The node lifecycle controller writes the condition taints
// (nodeConditionToTaintKeyStatusMap in pkg/controller/nodelifecycle/node_lifecycle_controller.go)
// and the unschedulable one from spec.unschedulable; DaemonSet pods tolerate most of them
// (AddOrUpdateDaemonPodTolerations in pkg/controller/daemon/util/daemonset_util.go).
const (
	// TaintNodeNotReady: the node's Ready condition is False.
	TaintNodeNotReady = "node.kubernetes.io/not-ready"
	// TaintNodeUnreachable: the node controller cannot hear from the node (Ready is Unknown).
	TaintNodeUnreachable = "node.kubernetes.io/unreachable"
	// TaintNodeUnschedulable: the node is cordoned (spec.unschedulable).
	TaintNodeUnschedulable = "node.kubernetes.io/unschedulable"
	// TaintNodeMemoryPressure: the MemoryPressure condition is True.
	TaintNodeMemoryPressure = "node.kubernetes.io/memory-pressure"
	// TaintNodeDiskPressure: the DiskPressure condition is True.
	TaintNodeDiskPressure = "node.kubernetes.io/disk-pressure"
	// TaintNodePIDPressure: the PIDPressure condition is True.
	TaintNodePIDPressure = "node.kubernetes.io/pid-pressure"
	// TaintNodeNetworkUnavailable: the NetworkUnavailable condition is True.
	TaintNodeNetworkUnavailable = "node.kubernetes.io/network-unavailable"
	// TaintNodeOutOfService: an administrator says the node is shut down for good (non-graceful
	// node shutdown); nothing adds it for them. On a node that is not Ready, pod GC force-deletes
	// the pods being deleted there (gcTerminating in pkg/controller/podgc/gc_controller.go), and
	// no DaemonSet pod tolerates it.
	TaintNodeOutOfService = "node.kubernetes.io/out-of-service"
)

// The label keys Kubernetes sets, as k8s.io/api's core/v1/well_known_labels.go and
// pkg/apis/core/v1/helper name them.
const (
	// LabelHostname is the node's name, set by the kubelet.
	LabelHostname = "kubernetes.io/hostname"
	// LabelTopologyZone is the node's failure zone, set by its cloud provider (or by hand).
	LabelTopologyZone = "topology.kubernetes.io/zone"
	// LabelOSStable and LabelArchStable are the node's operating system and architecture, set
	// by the kubelet; the beta labels carry the same values.
	LabelOSStable   = "kubernetes.io/os"
	LabelArchStable = "kubernetes.io/arch"
	LabelOSBeta     = "beta.kubernetes.io/os"
	LabelArchBeta   = "beta.kubernetes.io/arch"
	// LabelNodeRolePrefix starts the role labels kubectl get nodes shows under ROLES
	// (node-role.kubernetes.io/control-plane: "").
	LabelNodeRolePrefix = "node-role.kubernetes.io/"
	// LabelNodeRoleControlPlane marks a kubeadm control-plane node; kubeadm taints it with the
	// same key (NoSchedule).
	LabelNodeRoleControlPlane = LabelNodeRolePrefix + "control-plane"
	// LabelNodeRoleOld is the role label kubectl still reads (kubernetes.io/role=master).
	LabelNodeRoleOld = "kubernetes.io/role"
	// LabelNodeExcludeBalancers keeps a node out of external load balancers (kubeadm sets it on
	// control-plane nodes).
	LabelNodeExcludeBalancers = "node.kubernetes.io/exclude-from-external-load-balancers"
	// LabelMetadataName is every namespace's own name (the NamespaceDefaultLabelName feature).
	LabelMetadataName = "kubernetes.io/metadata.name"
)

// AnnotationChangeCause is what kubectl rollout history shows as a revision's CHANGE-CAUSE.
const AnnotationChangeCause = "kubernetes.io/change-cause"

// The labels and annotations the workload controllers put on what they create (k8s.io/api
// apps/v1/types.go and pkg/controller/deployment/util/deployment_util.go).
const (
	// LabelControllerRevisionHash names the ControllerRevision a DaemonSet's pod was made from.
	LabelControllerRevisionHash = "controller-revision-hash"
	// LabelPodTemplateGeneration is the DaemonSet template generation a pod was made from.
	LabelPodTemplateGeneration = "pod-template-generation"
	// LabelPodTemplateHash tells a Deployment's ReplicaSets and their pods apart.
	LabelPodTemplateHash = "pod-template-hash"
	// AnnotationRevision is a Deployment's and its ReplicaSets' revision number.
	AnnotationRevision = "deployment.kubernetes.io/revision"
	// AnnotationRevisionHistory lists the revisions a ReplicaSet was before it came back.
	AnnotationRevisionHistory = "deployment.kubernetes.io/revision-history"
	// AnnotationDesiredReplicas and AnnotationMaxReplicas are the Deployment's replicas and
	// replicas plus surge, as its ReplicaSets last saw them.
	AnnotationDesiredReplicas = "deployment.kubernetes.io/desired-replicas"
	AnnotationMaxReplicas     = "deployment.kubernetes.io/max-replicas"
)

// The annotations a kubelet puts on the pods it reads from its manifest directory, and on their
// mirror pods (pkg/kubelet/types/pod_update.go; MirrorPodAnnotationKey in
// pkg/apis/core/annotation_key_constants.go).
const (
	// AnnotationConfigMirror marks a mirror pod; its value is its static pod's hash.
	AnnotationConfigMirror = "kubernetes.io/config.mirror"
	// AnnotationConfigHash is the static pod's hash, which is also its UID on the node.
	AnnotationConfigHash = "kubernetes.io/config.hash"
	// AnnotationConfigSeen is when the kubelet first saw the pod.
	AnnotationConfigSeen = "kubernetes.io/config.seen"
	// AnnotationConfigSource is where the kubelet read the pod from: "file" for a manifest.
	AnnotationConfigSource = "kubernetes.io/config.source"
)

package shell

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"daemonlab/core/internal/measure"
	"daemonlab/core/sim"
)

// webPod is a valid pod manifest that hostile inputs build on.
const webPod = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: nginx\n    image: nginx:1.27\n"

// badInputs are hostile and malformed inputs a learner can type or paste — YAML bombs, deep
// nesting, huge documents, wrong kinds and types, invalid names, impossible taints and
// tolerations, absurd quantities, unknown flags, unterminated quotes — each with the error
// kubectl (or sim) gives. The manifests go to `kubectl apply -f -` as the editor sends them.
var badInputs = []struct{ name, run, stdin, want string }{
	{"alias bomb", "kubectl apply -f -", "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\nh: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]\ni: [*h, *h, *h, *h, *h, *h, *h, *h, *h]\n", "error: error parsing STDIN: error converting YAML to JSON: yaml: line 1: aliases expand to more than 100000 v"},
	{"deep nesting", "kubectl apply -f -", strings.Repeat("[", 100_000), "error: error parsing STDIN: error converting YAML to JSON: yaml: line 1: the document nests deeper than 100 le"},
	{"small alias bombs in many documents", "kubectl apply -f -", strings.Repeat("a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b ["+strings.Repeat("*a, ", 9)+"*a]\nc: &c ["+strings.Repeat("*b, ", 9)+"*b]\nd: ["+strings.Repeat("*c, ", 9)+"*c]\n---\n", 2000), "error: error parsing STDIN: error converting YAML to JSON: yaml: line 37: aliases expand to more than 10"},
	{"deep nesting after an escaped quote", "kubectl apply -f -", "metadata:\n  annotations: {a: \"\\\"\"}\nspec: " + strings.Repeat("[", 300_000), "error: error parsing STDIN: error converting YAML to JSON: yaml: line 3: the document nests deeper than 100 le"},
	{"deep nesting after an apostrophe", "kubectl apply -f -", "note: it's fine\nspec: " + strings.Repeat("[", 300_000), "error: error parsing STDIN: error converting YAML to JSON: yaml: line 2: the document nests deeper than 100 le"},
	{"deep nesting closed on one line", "kubectl apply -f -", strings.Repeat("[", 20_000) + strings.Repeat("]", 20_000), "error: error parsing STDIN: error converting YAML to JSON: yaml: line 1: the document nests deeper than 100 le"},
	{"100,000 plain list items", "kubectl apply -f -", webPod + "x:\n" + strings.Repeat("- x\n", 100_000), "Error from server (BadRequest): error when creating \"STDIN\": Pod in version \"v1\" cannot be handled as a Pod: strict decoding error: unknown field \"x\""},
	{"a megabyte document without a kind", "kubectl apply -f -", "a: " + strings.Repeat("word ", 200_000) + "\n", "error: unable to decode \"STDIN\": Object 'Kind' is missing in '{\"a\":\"word word"},
	{"huge document", "kubectl apply -f -", webPod + "  # " + strings.Repeat("x", 1<<20) + "\n", "error: error parsing STDIN: error converting YAML to JSON: yaml: the manifest is 1048686 bytes; DaemonLab read"},
	{"misspelt kind", "kubectl apply -f -", "apiVersion: apps/v1\nkind: DaemonSett\nmetadata:\n  name: fluentd-elasticsearch\n  namespace: kube-system\nspec:\n  selector:\n    matchLabels:\n      name: fluentd-elasticsearch\n  template:\n    metadata:\n      labels:\n        name: fluentd-elasticsearch\n    spec:\n      tolerations:\n      - key: node-role.kubernetes.io/control-plane\n        operator: Exists\n        effect: NoSchedule\n      containers:\n      - name: fluentd-elasticsearch\n        image: docker.io/library/fluentd:v2.5.1\n        resources:\n          limits:\n            memory: 200Mi\n          requests:\n            cpu: 100m\n            memory: 200Mi\n", "error: resource mapping not found for name: \"fluentd-elasticsearch\" namespace: \"kube-system\" from \"STDIN\": no "},
	{"unknown apiVersion", "kubectl apply -f -", "apiVersion: apps/v2\nkind: DaemonSet\nmetadata:\n  name: fluentd-elasticsearch\n  namespace: kube-system\nspec:\n  selector:\n    matchLabels:\n      name: fluentd-elasticsearch\n  template:\n    metadata:\n      labels:\n        name: fluentd-elasticsearch\n    spec:\n      tolerations:\n      - key: node-role.kubernetes.io/control-plane\n        operator: Exists\n        effect: NoSchedule\n      containers:\n      - name: fluentd-elasticsearch\n        image: docker.io/library/fluentd:v2.5.1\n        resources:\n          limits:\n            memory: 200Mi\n          requests:\n            cpu: 100m\n            memory: 200Mi\n", "error: resource mapping not found for name: \"fluentd-elasticsearch\" namespace: \"kube-system\" from \"STDIN\": no "},
	{"kind in the wrong group", "kubectl apply -f -", "apiVersion: v1\nkind: DaemonSet\nmetadata:\n  name: fluentd-elasticsearch\n  namespace: kube-system\nspec:\n  selector:\n    matchLabels:\n      name: fluentd-elasticsearch\n  template:\n    metadata:\n      labels:\n        name: fluentd-elasticsearch\n    spec:\n      tolerations:\n      - key: node-role.kubernetes.io/control-plane\n        operator: Exists\n        effect: NoSchedule\n      containers:\n      - name: fluentd-elasticsearch\n        image: docker.io/library/fluentd:v2.5.1\n        resources:\n          limits:\n            memory: 200Mi\n          requests:\n            cpu: 100m\n            memory: 200Mi\n", "error: resource mapping not found for name: \"fluentd-elasticsearch\" namespace: \"kube-system\" from \"STDIN\": no "},
	{"missing kind", "kubectl apply -f -", "apiVersion: apps/v1\nmetadata:\n  name: fluentd-elasticsearch\n  namespace: kube-system\nspec:\n  selector:\n    matchLabels:\n      name: fluentd-elasticsearch\n  template:\n    metadata:\n      labels:\n        name: fluentd-elasticsearch\n    spec:\n      tolerations:\n      - key: node-role.kubernetes.io/control-plane\n        operator: Exists\n        effect: NoSchedule\n      containers:\n      - name: fluentd-elasticsearch\n        image: docker.io/library/fluentd:v2.5.1\n        resources:\n          limits:\n            memory: 200Mi\n          requests:\n            cpu: 100m\n            memory: 200Mi\n", "error: unable to decode \"STDIN\": Object 'Kind' is missing in '{\"apiVersion\":\"apps/v1\",\"metadata\":{\"name\":\"flue"},
	{"string for a number", "kubectl apply -f -", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: fluentd-elasticsearch\n  namespace: kube-system\nspec:\n  minReadySeconds: soon\n  selector:\n    matchLabels:\n      name: fluentd-elasticsearch\n  template:\n    metadata:\n      labels:\n        name: fluentd-elasticsearch\n    spec:\n      tolerations:\n      - key: node-role.kubernetes.io/control-plane\n        operator: Exists\n        effect: NoSchedule\n      containers:\n      - name: fluentd-elasticsearch\n        image: docker.io/library/fluentd:v2.5.1\n        resources:\n          limits:\n            memory: 200Mi\n          requests:\n            cpu: 100m\n            memory: 200Mi\n", "Error from server (BadRequest): error when creating \"STDIN\": DaemonSet in version \"v1\" cannot be handled as a "},
	{"number for a label", "kubectl apply -f -", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: fluentd-elasticsearch\n  namespace: kube-system\n  labels:\n    version: 1.0\nspec:\n  selector:\n    matchLabels:\n      name: fluentd-elasticsearch\n  template:\n    metadata:\n      labels:\n        name: fluentd-elasticsearch\n    spec:\n      tolerations:\n      - key: node-role.kubernetes.io/control-plane\n        operator: Exists\n        effect: NoSchedule\n      containers:\n      - name: fluentd-elasticsearch\n        image: docker.io/library/fluentd:v2.5.1\n        resources:\n          limits:\n            memory: 200Mi\n          requests:\n            cpu: 100m\n            memory: 200Mi\n", "Error from server (BadRequest): error when creating \"STDIN\": DaemonSet in version \"v1\" cannot be handled as a "},
	{"duplicate keys", "kubectl apply -f -", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: fluentd-elasticsearch\n  namespace: kube-system\n  namespace: default\nspec:\n  selector:\n    matchLabels:\n      name: fluentd-elasticsearch\n  template:\n    metadata:\n      labels:\n        name: fluentd-elasticsearch\n    spec:\n      tolerations:\n      - key: node-role.kubernetes.io/control-plane\n        operator: Exists\n        effect: NoSchedule\n      containers:\n      - name: fluentd-elasticsearch\n        image: docker.io/library/fluentd:v2.5.1\n        resources:\n          limits:\n            memory: 200Mi\n          requests:\n            cpu: 100m\n            memory: 200Mi\n", "error: error parsing STDIN: error converting YAML to JSON: yaml: line 6: mapping key \"namespace\" already defin"},
	{"upper-case name", "kubectl apply -f -", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: Fluentd_ES\n  namespace: kube-system\nspec:\n  selector:\n    matchLabels:\n      name: fluentd-elasticsearch\n  template:\n    metadata:\n      labels:\n        name: fluentd-elasticsearch\n    spec:\n      tolerations:\n      - key: node-role.kubernetes.io/control-plane\n        operator: Exists\n        effect: NoSchedule\n      containers:\n      - name: fluentd-elasticsearch\n        image: docker.io/library/fluentd:v2.5.1\n        resources:\n          limits:\n            memory: 200Mi\n          requests:\n            cpu: 100m\n            memory: 200Mi\n", "The DaemonSet \"Fluentd_ES\" is invalid: metadata.name: Invalid value: \"Fluentd_ES\": a lowercase RFC 1123 subdom"},
	{"name too long", "kubectl apply -f -", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n  namespace: kube-system\nspec:\n  selector:\n    matchLabels:\n      name: fluentd-elasticsearch\n  template:\n    metadata:\n      labels:\n        name: fluentd-elasticsearch\n    spec:\n      tolerations:\n      - key: node-role.kubernetes.io/control-plane\n        operator: Exists\n        effect: NoSchedule\n      containers:\n      - name: fluentd-elasticsearch\n        image: docker.io/library/fluentd:v2.5.1\n        resources:\n          limits:\n            memory: 200Mi\n          requests:\n            cpu: 100m\n            memory: 200Mi\n", "The DaemonSet \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},
	{"empty name", "kubectl apply -f -", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: \"\"\n  namespace: kube-system\nspec:\n  selector:\n    matchLabels:\n      name: fluentd-elasticsearch\n  template:\n    metadata:\n      labels:\n        name: fluentd-elasticsearch\n    spec:\n      tolerations:\n      - key: node-role.kubernetes.io/control-plane\n        operator: Exists\n        effect: NoSchedule\n      containers:\n      - name: fluentd-elasticsearch\n        image: docker.io/library/fluentd:v2.5.1\n        resources:\n          limits:\n            memory: 200Mi\n          requests:\n            cpu: 100m\n            memory: 200Mi\n", "The DaemonSet \"\" is invalid: metadata.name: Required value: name or generateName is required"},
	{"unknown taint effect in a toleration", "kubectl apply -f -", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: fluentd-elasticsearch\n  namespace: kube-system\nspec:\n  selector:\n    matchLabels:\n      name: fluentd-elasticsearch\n  template:\n    metadata:\n      labels:\n        name: fluentd-elasticsearch\n    spec:\n      tolerations:\n      - key: node-role.kubernetes.io/control-plane\n        operator: Exists\n        effect: NoSchedul\n      containers:\n      - name: fluentd-elasticsearch\n        image: docker.io/library/fluentd:v2.5.1\n        resources:\n          limits:\n            memory: 200Mi\n          requests:\n            cpu: 100m\n            memory: 200Mi\n", "The DaemonSet \"fluentd-elasticsearch\" is invalid: spec.template.spec.tolerations[0].effect: Unsupported value:"},
	{"Exists with a value", "kubectl apply -f -", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: fluentd-elasticsearch\n  namespace: kube-system\nspec:\n  selector:\n    matchLabels:\n      name: fluentd-elasticsearch\n  template:\n    metadata:\n      labels:\n        name: fluentd-elasticsearch\n    spec:\n      tolerations:\n      - key: node-role.kubernetes.io/control-plane\n        operator: Exists\n        value: yes-please\n        effect: NoSchedule\n      containers:\n      - name: fluentd-elasticsearch\n        image: docker.io/library/fluentd:v2.5.1\n        resources:\n          limits:\n            memory: 200Mi\n          requests:\n            cpu: 100m\n            memory: 200Mi\n", "The DaemonSet \"fluentd-elasticsearch\" is invalid: spec.template.spec.tolerations[0].operator: Invalid value: \""},
	{"tolerationSeconds with NoSchedule", "kubectl apply -f -", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: fluentd-elasticsearch\n  namespace: kube-system\nspec:\n  selector:\n    matchLabels:\n      name: fluentd-elasticsearch\n  template:\n    metadata:\n      labels:\n        name: fluentd-elasticsearch\n    spec:\n      tolerations:\n      - key: node-role.kubernetes.io/control-plane\n        operator: Exists\n        effect: NoSchedule\n        tolerationSeconds: 30\n      containers:\n      - name: fluentd-elasticsearch\n        image: docker.io/library/fluentd:v2.5.1\n        resources:\n          limits:\n            memory: 200Mi\n          requests:\n            cpu: 100m\n            memory: 200Mi\n", "The DaemonSet \"fluentd-elasticsearch\" is invalid: spec.template.spec.tolerations[0].effect: Invalid value: \"No"},
	{"unknown toleration operator", "kubectl apply -f -", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: fluentd-elasticsearch\n  namespace: kube-system\nspec:\n  selector:\n    matchLabels:\n      name: fluentd-elasticsearch\n  template:\n    metadata:\n      labels:\n        name: fluentd-elasticsearch\n    spec:\n      tolerations:\n      - key: node-role.kubernetes.io/control-plane\n        operator: Matches\n        effect: NoSchedule\n      containers:\n      - name: fluentd-elasticsearch\n        image: docker.io/library/fluentd:v2.5.1\n        resources:\n          limits:\n            memory: 200Mi\n          requests:\n            cpu: 100m\n            memory: 200Mi\n", "The DaemonSet \"fluentd-elasticsearch\" is invalid: spec.template.spec.tolerations[0].operator: Unsupported valu"},
	{"negative memory", "kubectl apply -f -", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: fluentd-elasticsearch\n  namespace: kube-system\nspec:\n  selector:\n    matchLabels:\n      name: fluentd-elasticsearch\n  template:\n    metadata:\n      labels:\n        name: fluentd-elasticsearch\n    spec:\n      tolerations:\n      - key: node-role.kubernetes.io/control-plane\n        operator: Exists\n        effect: NoSchedule\n      containers:\n      - name: fluentd-elasticsearch\n        image: docker.io/library/fluentd:v2.5.1\n        resources:\n          limits:\n            memory: -1Gi\n          requests:\n            cpu: 100m\n            memory: 200Mi\n", "The DaemonSet \"fluentd-elasticsearch\" is invalid: "},
	{"replicas beyond int32", "kubectl apply -f -", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 99999999999\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: nginx, image: nginx}]}\n", "cannot unmarshal number 99999999999 into Go struct field DeploymentSpec.spec.replicas of type int32"},
	{"quantity that is not one", "kubectl apply -f -", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: fluentd-elasticsearch\n  namespace: kube-system\nspec:\n  selector:\n    matchLabels:\n      name: fluentd-elasticsearch\n  template:\n    metadata:\n      labels:\n        name: fluentd-elasticsearch\n    spec:\n      tolerations:\n      - key: node-role.kubernetes.io/control-plane\n        operator: Exists\n        effect: NoSchedule\n      containers:\n      - name: fluentd-elasticsearch\n        image: docker.io/library/fluentd:v2.5.1\n        resources:\n          limits:\n            memory: 200Mi\n          requests:\n            cpu: lots\n            memory: 200Mi\n", "Error from server (BadRequest): error when creating \"STDIN\": DaemonSet in version \"v1\" cannot be handled as a "},
	{"requests above limits", "kubectl apply -f -", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: fluentd-elasticsearch\n  namespace: kube-system\nspec:\n  selector:\n    matchLabels:\n      name: fluentd-elasticsearch\n  template:\n    metadata:\n      labels:\n        name: fluentd-elasticsearch\n    spec:\n      tolerations:\n      - key: node-role.kubernetes.io/control-plane\n        operator: Exists\n        effect: NoSchedule\n      containers:\n      - name: fluentd-elasticsearch\n        image: docker.io/library/fluentd:v2.5.1\n        resources:\n          limits:\n            memory: 200Mi\n          requests:\n            cpu: 100m\n            memory: 2Gi\n", "The DaemonSet \"fluentd-elasticsearch\" is invalid: spec.template.spec.containers[0].resources.requests: Invalid"},
	{"selector does not match the labels", "kubectl apply -f -", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: fluentd-elasticsearch\n  namespace: kube-system\nspec:\n  selector:\n    matchLabels:\n      name: fluentd-elasticsearch\n  template:\n    metadata:\n      labels:\n        name: fluentd\n    spec:\n      tolerations:\n      - key: node-role.kubernetes.io/control-plane\n        operator: Exists\n        effect: NoSchedule\n      containers:\n      - name: fluentd-elasticsearch\n        image: docker.io/library/fluentd:v2.5.1\n        resources:\n          limits:\n            memory: 200Mi\n          requests:\n            cpu: 100m\n            memory: 200Mi\n", "The DaemonSet \"fluentd-elasticsearch\" is invalid: spec.template.metadata.labels: Invalid value: {\"name\":\"fluen"},
	{"no containers", "kubectl apply -f -", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers: []\n", "The Pod \"web\" is invalid: spec.containers: Required value"},
	{"container without an image", "kubectl apply -f -", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: nginx\n", "The Pod \"web\" is invalid: spec.containers[0].image: Required value"},
	{"negative replicas", "kubectl apply -f -", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: -2\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: nginx, image: nginx}]}\n", "The Deployment \"web\" is invalid: spec.replicas: Invalid value: -2: must be greater than or equal to 0"},
	{"maxUnavailable and maxSurge both 0", "kubectl apply -f -", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: fluentd-elasticsearch\n  namespace: kube-system\nspec:\n  updateStrategy:\n    rollingUpdate: {maxUnavailable: 0, maxSurge: 0}\n  selector:\n    matchLabels:\n      name: fluentd-elasticsearch\n  template:\n    metadata:\n      labels:\n        name: fluentd-elasticsearch\n    spec:\n      tolerations:\n      - key: node-role.kubernetes.io/control-plane\n        operator: Exists\n        effect: NoSchedule\n      containers:\n      - name: fluentd-elasticsearch\n        image: docker.io/library/fluentd:v2.5.1\n        resources:\n          limits:\n            memory: 200Mi\n          requests:\n            cpu: 100m\n            memory: 200Mi\n", "The DaemonSet \"fluentd-elasticsearch\" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Required v"},
	{"maxUnavailable over 100%", "kubectl apply -f -", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: fluentd-elasticsearch\n  namespace: kube-system\nspec:\n  updateStrategy:\n    rollingUpdate: {maxUnavailable: 150%}\n  selector:\n    matchLabels:\n      name: fluentd-elasticsearch\n  template:\n    metadata:\n      labels:\n        name: fluentd-elasticsearch\n    spec:\n      tolerations:\n      - key: node-role.kubernetes.io/control-plane\n        operator: Exists\n        effect: NoSchedule\n      containers:\n      - name: fluentd-elasticsearch\n        image: docker.io/library/fluentd:v2.5.1\n        resources:\n          limits:\n            memory: 200Mi\n          requests:\n            cpu: 100m\n            memory: 200Mi\n", "The DaemonSet \"fluentd-elasticsearch\" is invalid: spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid va"},
	{"invalid label key", "kubectl apply -f -", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: fluentd-elasticsearch\n  namespace: kube-system\n  labels:\n    'bad key': x\nspec:\n  selector:\n    matchLabels:\n      name: fluentd-elasticsearch\n  template:\n    metadata:\n      labels:\n        name: fluentd-elasticsearch\n    spec:\n      tolerations:\n      - key: node-role.kubernetes.io/control-plane\n        operator: Exists\n        effect: NoSchedule\n      containers:\n      - name: fluentd-elasticsearch\n        image: docker.io/library/fluentd:v2.5.1\n        resources:\n          limits:\n            memory: 200Mi\n          requests:\n            cpu: 100m\n            memory: 200Mi\n", "The DaemonSet \"fluentd-elasticsearch\" is invalid: metadata.labels: Invalid value: \"bad key\": name part must co"},
	{"tabs for indentation", "kubectl apply -f -", "apiVersion: v1\nkind: Pod\nmetadata:\n\tname: web\n", "error: error parsing STDIN: error converting YAML to JSON: yaml: line 4: found character '\t' that cannot start"},
	{"unterminated flow mapping", "kubectl apply -f -", "apiVersion: v1\nkind: Pod\nmetadata: {name: web\n", "error: error parsing STDIN: error converting YAML to JSON: yaml: line 3: could not find flow mapping end token"},
	{"binary garbage", "kubectl apply -f -", "\u0000\u0001\u0002\u00ff\u00fe", "error: error parsing STDIN: error converting YAML to JSON: yaml: line 1: cannot unmarshal string into Go value"},
	{"a list at the top", "kubectl apply -f -", "[1, 2]\n", "error: error parsing STDIN: error converting YAML to JSON: yaml: line 1: cannot unmarshal array into Go value "},
	{"node with an impossible taint", "kubectl apply -f -", "apiVersion: v1\nkind: Node\nmetadata: {name: hd9}\nspec:\n  taints: [{key: k, effect: Sometimes}]\n", "The Node \"hd9\" is invalid: spec.taints[0].effect: Unsupported value: \"Sometimes\": supported values: \"NoSchedul"},
	{"namespace that does not exist", "kubectl apply -f -", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: nowhere\nspec:\n  containers:\n  - name: nginx\n    image: nginx:1.27\n", "Error from server (NotFound): error when creating \"STDIN\": namespaces \"nowhere\" not found"},
	{"unknown field", "kubectl apply -f -", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: fluentd-elasticsearch\n  namespace: kube-system\nspec:\n  replicas: 3\n  selector:\n    matchLabels:\n      name: fluentd-elasticsearch\n  template:\n    metadata:\n      labels:\n        name: fluentd-elasticsearch\n    spec:\n      tolerations:\n      - key: node-role.kubernetes.io/control-plane\n        operator: Exists\n        effect: NoSchedule\n      containers:\n      - name: fluentd-elasticsearch\n        image: docker.io/library/fluentd:v2.5.1\n        resources:\n          limits:\n            memory: 200Mi\n          requests:\n            cpu: 100m\n            memory: 200Mi\n", "Error from server (BadRequest): error when creating \"STDIN\": DaemonSet in version \"v1\" cannot be handled as a "},
	{"port out of range", "kubectl apply -f -", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: nginx\n    image: nginx:1.27\n    ports: [{containerPort: 70000}]\n", "The Pod \"web\" is invalid: spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 a"},
	{"DaemonSet with restartPolicy Never", "kubectl apply -f -", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: fluentd-elasticsearch\n  namespace: kube-system\nspec:\n  selector:\n    matchLabels:\n      name: fluentd-elasticsearch\n  template:\n    metadata:\n      labels:\n        name: fluentd-elasticsearch\n    spec:\n      tolerations:\n      - key: node-role.kubernetes.io/control-plane\n        operator: Exists\n        effect: NoSchedule\n      restartPolicy: Never\n      containers:\n      - name: fluentd-elasticsearch\n        image: docker.io/library/fluentd:v2.5.1\n        resources:\n          limits:\n            memory: 200Mi\n          requests:\n            cpu: 100m\n            memory: 200Mi\n", "The DaemonSet \"fluentd-elasticsearch\" is invalid: spec.template.spec.restartPolicy: Unsupported value: \"Never\""},
	{"nothing to apply", "kubectl apply -f -", "# only a comment\n", "error: no objects passed to apply"},
	{"unterminated quote", "kubectl get pods -l 'app=web", "", "error: unterminated quoted string"},
	{"unknown flag", "kubectl get pods --colour", "", "error: unknown flag: --colour"},
	{"unknown command", "kubectl frobnicate", "", "error: unknown command \"frobnicate\" for \"kubectl\""},
	{"unknown resource type", "kubectl get dss", "", "error: the server doesn't have a resource type \"dss\""},
	{"bad label selector", "kubectl get pods -l 'a in (b'", "", "Error from server (BadRequest): Unable to find \"/v1, Resource=pods\" that match label selector \"a in (b\", field"},
	{"bad field selector", "kubectl get pods --field-selector spec.nodeName~hd1", "", "Error from server (BadRequest): Unable to find \"/v1, Resource=pods\" that match label selector \"\", field select"},
	{"unsupported field selector", "kubectl get pods --field-selector spec.colour=red", "", "Error from server (BadRequest): Unable to find \"/v1, Resource=pods\" that match label selector \"\", field select"},
	{"bad jsonpath", "kubectl get pods -o jsonpath={.items[}", "", "error: error parsing jsonpath {.items[}, unterminated array"},
	{"unterminated jsonpath filter", "kubectl get pods -o jsonpath='{.items[?(@.x==\"'", "", "error: error parsing jsonpath {.items[?(@.x==\", unterminated filter"},
	{"unknown output format", "kubectl get pods -o xml", "", "error: DaemonLab does not print -o xml yet; use the table, -o wide, -o name, -o yaml, -o json, -o jsonpath= or"},
	{"custom-columns without a path", "kubectl get pods -o custom-columns=NAME", "", "error: unexpected custom-columns spec: NAME, expected <header>:<json-path-expr>"},
	{"unknown taint effect", "kubectl taint nodes hd2 key=value:Bogus", "", "error: invalid taint effect: Bogus, unsupported taint effect"},
	{"taint without an effect", "kubectl taint nodes hd2 key=value", "", "error: invalid taint spec: key=value, name part must consist of alphanumeric characters, '-', '_' or '.', and "},
	{"taint on a missing node", "kubectl taint nodes nope a=b:NoSchedule", "", "Error from server (NotFound): nodes \"nope\" not found"},
	{"scale below zero", "kubectl scale deployment web --replicas=-1", "", "error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0"},
	{"scale a missing Deployment", "kubectl scale deployment nope --replicas=2", "", "Error from server (NotFound): deployments.apps \"nope\" not found"},
	{"label key with a space", "kubectl label node hd2 'bad key=v'", "", "The Node \"hd2\" is invalid: metadata.labels: Invalid value: \"bad key\": name part must consist of alphanumeric c"},
	{"cordon without a node", "kubectl cordon", "", "error: USAGE: cordon NODE [flags]"},
	{"delete without arguments", "kubectl delete", "", "error: You must provide one or more resources by argument or filename."},
	{"patch that is not JSON", "kubectl patch ds fluentd-elasticsearch -n kube-system -p '{spec: '", "", "error: unable to parse \"{spec: \": yaml: line 1: could not find map value"},
	{"set image on a missing DaemonSet", "kubectl set image ds/nope x=y", "", "Error from server (NotFound): daemonsets.apps \"nope\" not found"},
	{"undo to a revision that does not exist", "kubectl rollout undo ds/fluentd-elasticsearch -n kube-system --to-revision=99", "", "error: unable to find specified revision 99 in history"},
	{"negative duration", "sim advance -5s", "", "error: \"-5s\" is not a duration: use a number and a unit, such as 10s, 5m or 1h30m"},
	{"duration that is not one", "sim advance forever", "", "error: \"forever\" is not a duration: use a number and a unit, such as 10s, 5m or 1h30m"},
	{"unknown fault", "sim fail hd2 meltdown", "", "error: unknown fault \"meltdown\": use one of kubelet-down, not-ready, memory-pressure, disk-pressure, pid-press"},
	{"fault on a missing node", "sim fail nope kubelet-down", "", "Error from server (NotFound): nodes \"nope\" not found"},
	{"invalid node name", "sim add-node Bad_Name", "", "The Node \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must "},
	{"node memory that is not a quantity", "sim add-node hd9 --memory lots", "", "error: --memory lots: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*"},
	{"node taint with an unknown effect", "sim add-node hd9 --taint k=v:Sometimes", "", "error: invalid taint effect: Sometimes, unsupported taint effect"},
	{"usage of a missing pod", "sim usage nope --memory 1Gi", "", "Error from server (NotFound): pods \"nope\" not found"},
	{"unknown image behaviour", "sim image x explode", "", "error: unknown behaviour \"explode\": use ok, crash or unready"},
	{"pipe into a tool DaemonLab lacks", "kubectl get pods | awk '{print}'", "", "awk: command not found (DaemonLab runs kubectl, sim, help, the file commands cat, cp, echo, ls, mkdir, mv, pwd, rm, touch, and grep, head, tail and wc -l)"},
	{"pipe into nothing", "kubectl get pods |", "", "syntax error near unexpected token `|'"},
	{"not a command at all", "awk '{print}'", "", "awk: command not found"},
	{"rm refuses the root", "rm -rf /", "", "rm: it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe"},
	{"JSON patch copying metadata into itself 30 times", "kubectl patch deploy web --type=json -p '" + metadataCopies(30) + "'", "", "The request is invalid: : Unable to complete the copy, the accumulated size increase of copy is "},
}

// metadataCopies is a JSON patch of n operations, each copying /metadata into a new field of
// itself: the copied bytes double with every operation.
func metadataCopies(n int) string {
	ops := make([]string, n)
	for i := range ops {
		ops[i] = fmt.Sprintf(`{"op": "copy", "from": "/metadata", "path": "/metadata/copy-%02d-of-the-metadata"}`, i+1)
	}
	return "[" + strings.Join(ops, ", ") + "]"
}

// TestBadInputsAreRefusedAndChangeNothing: every bad input fails with its message, short
// whatever the input's size, and the
// cluster is exactly as it was — not one object, fault, timer, clock tick or random draw changed
// (cluster.Writes counts every one).
func TestBadInputsAreRefusedAndChangeNothing(t *testing.T) {
	require.GreaterOrEqual(t, len(badInputs), 60)
	for _, c := range badInputs {
		t.Run(c.name, func(t *testing.T) {
			s := playground(t)
			before, writes := dump(s), s.C.Writes()
			r := Run(s, c.run, c.stdin)
			assert.NotZero(t, r.Code, "the input is refused")
			assert.Contains(t, r.Err, c.want)
			assert.Less(t, len(r.Err), 2000, "an error quotes at most a short prefix of its input")
			assert.NotContains(t, r.Err, "panic")
			assert.Equal(t, writes, s.C.Writes(), "the cluster changed")
			assert.Equal(t, before, dump(s))
		})
	}
}

// dump is everything kubectl shows of the cluster, as YAML.
func dump(s *sim.Sim) string {
	r := Run(s, "kubectl get all,nodes,ds,namespaces,events,controllerrevisions -A -o yaml", "")
	return r.Out + r.Err
}

// The ceiling on what refusing a bad input may cost, for the n bytes of its command line and
// standard input (measured natively; see TestBadInputsAreRefusedInBoundedMemoryAndOutput):
//
//  1. Bytes allocated: at most bytesPerInputByte × n + boundedBytes. A 400 KB manifest of
//     100,000 plain list items allocates the most per byte (412); the alias bombs the most
//     whatever their size, as the expansion stops at 100,000 values (25.7 MB for 393 bytes).
//  2. Objects allocated: at most objectsPerInputByte × n + boundedObjects (the same two: 5.5 a
//     byte, and 233,000).
//  3. What the terminal receives, output and error: at most maxRefusalOutput bytes.
const (
	bytesPerInputByte   = 512
	boundedBytes        = 32 << 20
	objectsPerInputByte = 8
	boundedObjects      = 300_000
	maxRefusalOutput    = 4 << 10
)

// TestBadInputsAreRefusedInBoundedMemoryAndOutput: refusing each bad input allocates at most the
// ceiling above for its size, and answers in a few KB, however big the input (a huge input's
// error quotes a short prefix of it). Issue 19: nothing a learner does kills the tab.
func TestBadInputsAreRefusedInBoundedMemoryAndOutput(t *testing.T) {
	for _, c := range badInputs {
		t.Run(c.name, func(t *testing.T) {
			s := playground(t)
			n := uint64(len(c.run) + len(c.stdin))
			var r Result
			objects, bytes := measure.Allocations(func() { r = Run(s, c.run, c.stdin) })
			require.NotZero(t, r.Code, "the input is refused")
			t.Logf("%d input bytes: %d bytes (%.0f a byte), %d objects (%.1f a byte)", n, bytes, float64(bytes)/float64(n), objects, float64(objects)/float64(n))
			assert.LessOrEqual(t, bytes, bytesPerInputByte*n+boundedBytes, "bytes allocated for %d input bytes", n)
			assert.LessOrEqual(t, objects, objectsPerInputByte*n+boundedObjects, "objects allocated for %d input bytes", n)
			assert.LessOrEqual(t, len(r.Out)+len(r.Err), maxRefusalOutput, "what the terminal receives")
		})
	}
}

// crashingDeployment and crashingDaemonSet run an image that `sim image busybox:1 crash` makes
// crash: their pods restart for ever, a stop of the clock every few minutes each.
// guardedDeployment's pods are all Ready, and its PodDisruptionBudget lets none go.
const (
	crashingDeployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: x}}\n  template:\n    metadata: {labels: {app: x}}\n    spec: {containers: [{name: c, image: 'busybox:1'}]}\n"
	guardedDeployment  = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec:\n  replicas: 3\n  selector: {matchLabels: {app: x}}\n  template:\n    metadata: {labels: {app: x}}\n    spec: {containers: [{name: c, image: 'nginx:1.27'}]}\n---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: x}\nspec:\n  minAvailable: 3\n  selector: {matchLabels: {app: x}}\n"
	crashingDaemonSet  = "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec: {containers: [{name: c, image: 'busybox:1'}]}\n"
)

// runawayInputs are commands that would keep a browser tab busy for hours or days — simulated
// time over crash loops, kubectl waiting as long as it is told — with the error each stops with
// once it has done the work one command may (sim.Budget).
var runawayInputs = []struct{ name, manifest, run, want string }{
	{"a thousand hours of a crash loop", crashingDeployment, "sim advance 1000h", "error: sim advance stopped after "},
	{"a rollout watched for a thousand hours", crashingDaemonSet, "kubectl rollout status ds/agent --timeout=1000h", "error: kubectl rollout status stopped after "},
	{"a drain a budget blocks for a thousand hours", guardedDeployment, "kubectl drain hd2 --ignore-daemonsets --timeout=1000h", "kubectl drain stopped after "},
}

// TestRunawayCommandsStopWhereTheirBudgetRunsOut: each runaway command stops with its error
// (the rule's words, sim.Stopped) once it has done sim.Budget units of work, and no more than a
// stop's settling past it; the cluster stays where it stopped, settled; the same command again
// goes on from there.
func TestRunawayCommandsStopWhereTheirBudgetRunsOut(t *testing.T) {
	if runtime.GOARCH == "wasm" {
		t.Skip("a budget's worth of work, counted the same under wasm (the count is deterministic), takes minutes under Node")
	}
	for _, c := range runawayInputs {
		t.Run(c.name, func(t *testing.T) {
			s := playground(t)
			require.Zero(t, Run(s, "sim image busybox:1 crash", "").Code)
			require.Zero(t, Run(s, "kubectl apply -f -", c.manifest).Code)
			require.Zero(t, Run(s, "sim advance 1m", "").Code)
			start, before := s.C.Now(), s.Work()
			r := Run(s, c.run, "")
			assert.Equal(t, 1, r.Code)
			assert.Contains(t, r.Err, c.want)
			assert.Contains(t, r.Err, "of 1000h0m0s: one command may do at most 2,000,000 units of work; the cluster stays as it stands, so run it again to go on")
			assert.NotContains(t, r.Err, "panic")
			spent := s.Work() - before
			assert.GreaterOrEqual(t, spent, int64(sim.Budget))
			assert.Less(t, spent, int64(sim.Budget)*101/100)
			stopped := s.C.Now()
			assert.True(t, stopped.After(start) && stopped.Before(start.Add(1000*time.Hour)), "stopped at %v", stopped.Sub(start))
			writes := s.C.Writes()
			s.Settle()
			assert.Equal(t, writes, s.C.Writes(), "settled where it stopped")
			Run(s, c.run, "")
			assert.True(t, s.C.Now().After(stopped), "run again, it goes on")
		})
	}
}

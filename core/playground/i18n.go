package playground

import (
	"fmt"
	"strings"

	"daemonlab/core/kubectl"
)

// Lang is a language of the page's own words. What kubectl and sim print stays English, as
// kubectl prints it on a real cluster; resource kinds, condition types and taint effects stay
// English in Chinese text too (DaemonSet, Ready, NoExecute), as kubernetes.io/zh-cn writes them.
type Lang string

// The languages the page speaks.
const (
	English Lang = "en"
	Chinese Lang = "zh-CN"
)

// Langs lists them in the order the switch offers them.
var Langs = []Lang{English, Chinese}

// PickLang chooses the page's language:
//
//  1. the one the learner chose last (remembered), if the page speaks it;
//  2. else the first of the browser's preferred languages that the page speaks (any zh
//     variant is Simplified Chinese);
//  3. else English.
func PickLang(remembered string, preferred []string) Lang {
	for _, l := range Langs {
		if remembered == string(l) {
			return l
		}
	}
	for _, p := range preferred {
		tag := strings.ToLower(p)
		for _, t := range LangTags {
			if tag == t.Tag || strings.HasPrefix(tag, t.Tag+"-") {
				return t.Lang
			}
		}
	}
	return English
}

// LangTags are the language tags PickLang takes for each language: the tag itself or the tag
// and a subtag ("zh", "zh-TW").
var LangTags = []struct {
	Tag  string
	Lang Lang
}{{"en", English}, {"zh", Chinese}}

// T returns the page's text for key in lang, formatted with args; an unknown key is a bug and
// shows as the key itself so that a test finds it.
func T(lang Lang, key string, args ...any) string {
	t, ok := texts[key]
	if !ok {
		return key
	}
	s := t.en
	if lang == Chinese {
		s = t.zh
	}
	if len(args) > 0 {
		s = fmt.Sprintf(s, args...)
	}
	return s
}

type text struct{ en, zh string }

// texts holds every string of the page in both languages. The Chinese follows the zh-cn terms
// of kubernetes.io (see the glossary): 节点, 污点, 容忍度, 驱逐, 服务质量类, 腾空, 悬决.
var texts = map[string]text{
	"title":                          {"DaemonLab — a Kubernetes playground in your browser", "DaemonLab — 浏览器里的 Kubernetes 练习场"},
	"tagline":                        {"A Kubernetes v1.37 cluster, simulated in your browser", "在浏览器中模拟的 Kubernetes v1.37 集群"},
	"cluster":                        {"Cluster", "集群"},
	"loading":                        {"Starting the cluster…", "正在启动集群…"},
	"starting":                       {"starting…", "正在启动…"},
	"pending":                        {"Pending — no node has taken these pods", "悬决 — 还没有节点接纳这些 Pod"},
	"editor":                         {"YAML", "YAML"},
	"editor.label":                   {"manifest", "清单"},
	"apply":                          {"Apply", "应用"},
	"editor.tabs":                    {"open files", "打开的文件"},
	"tab.close":                      {"Close %s", "关闭 %s"},
	"tabs.full":                      {"At most %s files can be open in the editor at once: close a tab first.", "编辑器中最多可同时打开 %s 个文件：请先关闭一个标签页。"},
	"save":                           {"Save", "保存"},
	"save.hint":                      {"Ctrl/⌘ + S · saves the edit: kubectl edit applies your changes, or reopens the file with its errors on top; closing the tab cancels the edit", "Ctrl/⌘ + S · 保存编辑：kubectl edit 应用你的修改，或在文件顶部列出错误后重新打开；关闭此标签页即取消编辑"},
	"apply.file.hint":                {"Ctrl/⌘ + Enter · runs kubectl apply -f %s; the tab is the file (cat %s shows it)", "Ctrl/⌘ + Enter · 执行 kubectl apply -f %s；此标签页就是该文件（cat %s 可查看）"},
	"apply.hint":                     {"Ctrl/⌘ + Enter · runs kubectl apply -f -; if anything fails, nothing is applied", "Ctrl/⌘ + Enter · 执行 kubectl apply -f -；只要有一处失败，就什么都不应用"},
	"terminal":                       {"Terminal", "终端"},
	"terminal.label":                 {"terminal output", "终端输出"},
	"prompt.label":                   {"command: kubectl or sim; Tab completes, arrow keys recall, Ctrl+L clears", "命令：kubectl 或 sim；Tab 补全，方向键调出历史，Ctrl+L 清屏"},
	"line":                           {"line %d: %s", "第 %d 行：%s"},
	"time":                           {"time", "时间"},
	"clock":                          {"simulated time", "模拟时间"},
	"clock.value":                    {"t = %s", "t = %s"},
	"next":                           {"Next event", "下一个事件"},
	"play":                           {"▶ Play", "▶ 播放"},
	"pause":                          {"❚❚ Pause", "❚❚ 暂停"},
	"speed":                          {"speed of play", "播放速度"},
	"undo":                           {"Undo", "撤消"},
	"redo":                           {"Redo", "重做"},
	"scrubber":                       {"step %d of %d", "第 %d 步，共 %d 步"},
	"session":                        {"session", "会话"},
	"share":                          {"Share link", "分享链接"},
	"share.done":                     {"This link holds the whole session: copy it (it is selected), and whoever opens it gets this cluster, timeline and editor. Nothing is sent to any server.", "此链接包含整个会话：复制它（已选中），打开它的人会得到同样的集群、时间线和编辑器内容。不会向任何服务器发送数据。"},
	"share.url":                      {"share link", "分享链接"},
	"dismiss":                        {"Dismiss", "关闭"},
	"export":                         {"Export YAML", "导出 YAML"},
	"export.empty":                   {"There is nothing of yours to export yet: no namespaces, DaemonSets, Deployments or pods of your own.", "还没有可导出的内容：没有你自己创建的名字空间、DaemonSet、Deployment 或 Pod。"},
	"reset":                          {"Reset", "重置"},
	"reset.confirm":                  {"Reset? Click again", "确定重置？再点一次"},
	"lang":                           {"language", "语言"},
	"link.bad":                       {"This share link is incomplete or was changed, so it was not opened. Your own work is still here.", "此分享链接不完整或已被改动，因此没有打开。你自己的工作仍保留在这里。"},
	"saved.bad":                      {"Your saved session could not be read: %s. DaemonLab started afresh; a copy is kept in this browser, and you can download it.", "无法读取你保存的会话：%s。DaemonLab 已重新开始；副本保留在此浏览器中，你可以下载它。"},
	"saved.bad.held":                 {"Your saved session could not be read: %s. There is no room to keep a copy, so DaemonLab will not save over it: download it first, or choose to save over it.", "无法读取你保存的会话：%s。没有空间保留副本，因此 DaemonLab 不会覆盖它：请先下载它，或选择覆盖保存。"},
	"asset.missing.openapi.json":     {"kubectl explain's documents could not be downloaded (%s); everything else works. Reload the page to try again.", "无法下载 kubectl explain 的文档（%s）；其余功能均可使用。请重新加载页面再试。"},
	"asset.missing.lessons.json":     {"The lessons could not be downloaded (%s); the sandbox works. Reload the page to try again.", "无法下载课程（%s）；沙盒仍可使用。请重新加载页面再试。"},
	"asset.waiting.openapi.json":     {kubectl.WaitingDocs, "加载中……kubectl explain 的文档仍在下载，请稍后再运行一次"},
	"asset.missing.cmd.openapi.json": {"kubectl explain's documents could not be downloaded; reload the page to try again", "无法下载 kubectl explain 的文档；请重新加载页面再试"},
	"asset.lessons.waiting":          {"Loading the lessons…", "正在加载课程……"},
	"start.failed":                   {"DaemonLab could not start: %s", "DaemonLab 无法启动：%s"},
	"asset.lessons.start":            {"the lessons it opens with could not be downloaded (%s); reload the page to try again", "无法下载它要打开的课程（%s）；请重新加载页面再试"},
	"link.kept":                      {"You opened a link: its session replaced yours in this tab, and yours is kept — one click brings it back.", "你打开了一个链接：它的会话替换了此标签页中你的会话，你的会话已保留——点一下即可恢复。"},
	"back.done":                      {"You are back where you were; the session you left is kept too.", "你已回到之前的会话；刚离开的会话也已保留。"},
	"back.bad":                       {"The previous session could not be opened: %s. This one is as it was.", "无法打开之前的会话：%s。当前会话保持不变。"},
	"save.big":                       {"This session is not saved: at %s MiB, even without the editor's text, it is larger than the 4 MiB a saved session may hold, so your last save is kept as it was. Save it to a file to keep it.", "此会话未保存：即使不含编辑器中的文本，它也有 %s MiB，超过了保存的会话最多可容纳的 4 MiB，因此上一次保存的内容保持不变。请将它保存到文件。"},
	"save.full":                      {"Your browser's storage for this page is full, so this session is not saved (your last save is kept as it was). Save it to a file to keep it.", "浏览器为此页面提供的存储空间已满，因此此会话未保存（上一次保存的内容保持不变）。请将它保存到文件。"},
	"save.off":                       {"This browser does not let the page save (a private window, or storage turned off), so the session is lost when the tab closes. Save it to a file to keep it.", "此浏览器不允许页面保存（隐私窗口，或存储已关闭），因此关闭标签页时会话将丢失。请将它保存到文件。"},
	"save.dropped":                   {"Your browser's storage was full: to save this session, the %s oldest of the sessions kept for you were dropped.", "浏览器的存储空间已满：为保存此会话，为你保留的会话中最早的 %s 个已被删除。"},
	"tab.changed":                    {"This session was changed in another tab. This tab stops saving until you choose: follow the other tab, or keep this tab's session (the other tab's then stays one click away).", "此会话已在另一个标签页中被修改。在你做出选择之前，此标签页不再保存：跟随另一个标签页，或保留此标签页的会话（另一个标签页的会话将保留，点一下即可恢复）。"},
	"tab.bad":                        {"The other tab's session could not be opened: %s. This tab's is as it was.", "无法打开另一个标签页的会话：%s。此标签页的会话保持不变。"},
	"import.bad":                     {"This file was not opened: %s. Your session is as it was.", "此文件未被打开：%s。你的会话保持不变。"},
	"kept.lesson":                    {"The lesson started; the session you left is kept — one click brings it back.", "课程已开始；你离开的会话已保留——点一下即可恢复。"},
	"kept.cluster":                   {"The sandbox started afresh on the cluster you picked; the session before is kept — one click brings it back.", "沙箱已在所选集群上重新开始；之前的会话已保留——点一下即可恢复。"},
	"cluster.start":                  {"Starting cluster: 3 nodes, or 3 nodes with what kubeadm runs in kube-system (kube-proxy, CoreDNS, the control plane's Pods)", "初始集群：3 个节点，或带有 kubeadm 在 kube-system 中运行的组件（kube-proxy、CoreDNS、控制平面 Pod）的 3 个节点"},
	"cluster.default":                {"3 nodes", "3 个节点"},
	"cluster.kubeadm":                {"3 nodes + kubeadm's add-ons", "3 个节点 + kubeadm 组件"},
	"cluster.import":                 {"Import a real cluster's objects: the output of kubectl get nodes,daemonsets,deployments,replicasets,pods -A -o yaml", "导入真实集群的对象：kubectl get nodes,daemonsets,deployments,replicasets,pods -A -o yaml 的输出"},
	"cluster.importShort":            {"Import cluster", "导入集群"},
	"kept.reset":                     {"The cluster was reset to its start; the session before is kept — one click brings it back.", "集群已重置为初始状态；重置前的会话已保留——点一下即可恢复。"},
	"kept.file":                      {"The session file was opened; the session you left is kept — one click brings it back.", "会话文件已打开；你离开的会话已保留——点一下即可恢复。"},
	"kept.tab":                       {"This tab now shows the other tab's session; this tab's own is kept — one click brings it back.", "此标签页现在显示另一个标签页的会话；此标签页自己的会话已保留——点一下即可恢复。"},
	"kept.other":                     {"This tab's session is kept and saved again; the other tab's is kept too — one click brings it here.", "此标签页的会话已保留并重新保存；另一个标签页的会话也已保留——点一下即可在此打开。"},
	"sandbox.back":                   {"You left the lesson: your sandbox is back as you left it (the lesson is kept too).", "你已离开课程：你的沙盒已恢复为离开时的状态（课程也已保留）。"},
	"save.editor":                    {"The editor's text is not saved: with it the session would be %s MiB, more than the 4 MiB a saved session may hold. Everything else is saved; save the session to a file to keep the text too.", "编辑器中的文本未保存：包含它时会话将有 %s MiB，超过了保存的会话最多可容纳的 4 MiB。其余内容均已保存；请将会话保存到文件以保留该文本。"},
	"action.back.sandbox.one":        {"Back to your sandbox (1 step)", "回到你的沙盒（1 步）"},
	"action.back.sandbox":            {"Back to your sandbox (%d steps)", "回到你的沙盒（%d 步）"},
	"action.back.lesson":             {"Back to %s", "回到%s"},
	"unsaved.title":                  {"This session is not being saved: see the notice for why and what to do", "此会话未在保存：原因和处理方法见提示"},
	"unsaved":                        {"● not saved", "● 未保存"},
	"action.follow":                  {"Follow the other tab", "跟随另一个标签页"},
	"action.keep":                    {"Keep this tab's session", "保留此标签页的会话"},
	"action.export-session":          {"Save session to a file", "将会话保存到文件"},
	"action.download-unreadable":     {"Download the unreadable session", "下载无法读取的会话"},
	"action.save-over":               {"Save over it", "覆盖保存"},
	"session.save":                   {"Save the whole session to a file", "将整个会话保存到文件"},
	"session.saveShort":              {"Save session", "保存会话"},
	"session.open":                   {"Open a session file", "打开会话文件"},
	"session.openShort":              {"Open session", "打开会话"},
	"panic":                          {"Something went wrong inside DaemonLab, and that is our bug, not yours. The page keeps working; details are in the browser console.", "DaemonLab 内部出错了，这是我们的缺陷，不是你的。页面仍可继续使用；详情见浏览器控制台。"},
	"node.menu":                      {"Break or fix this node…", "让此节点出故障或恢复…"},
	"node.actions":                   {"actions for node %s", "节点 %s 的操作"},
	"taint":                          {"taint %s", "污点 %s"},
	"add-node":                       {"Add a node", "添加节点"},
	"kubelet-down":                   {"Stop the kubelet", "停止 kubelet"},
	"not-ready":                      {"Make it NotReady", "使其未就绪（NotReady）"},
	"memory":                         {"Memory pressure", "内存压力"},
	"disk":                           {"Disk pressure", "磁盘压力"},
	"pid":                            {"PID pressure", "PID 压力"},
	"network":                        {"Network unavailable", "网络不可用"},
	"recover":                        {"Recover", "恢复"},
	"cordon":                         {"Cordon (mark unschedulable)", "将节点标记为不可调度（cordon）"},
	"uncordon":                       {"Uncordon", "使节点再次可调度（uncordon）"},
	"drain":                          {"Drain", "腾空（drain）"},
	"delete-node":                    {"Delete the node", "删除节点"},
	"why.tolerated":                  {"%[2]s runs a pod on %[1]s: the node matches its selectors, and it tolerates every NoSchedule and NoExecute taint (with the tolerations every DaemonSet pod gets)", "%[2]s 在 %[1]s 上运行 Pod：节点满足其选择算符，且它容忍所有 NoSchedule 和 NoExecute 污点（包括每个 DaemonSet Pod 都会获得的容忍度）"},
	"why.nodename":                   {"%[2]s wants no pod on %[1]s: its template names node %[3]s (spec.nodeName)", "%[2]s 不需要在 %[1]s 上运行 Pod：其模板指定了节点 %[3]s（spec.nodeName）"},
	"why.affinity":                   {"%[1]s's labels do not match the nodeSelector or required node affinity of %[2]s: it wants no pod here, and deletes one it has", "%[1]s 的标签不满足 %[2]s 的 nodeSelector 或硬性要求的节点亲和性：它不需要在此运行 Pod，已有的 Pod 会被删除"},
	"why.noexecute":                  {"%[1]s has the taint %[3]s; %[2]s does not tolerate it, so it runs no pod here and deletes the one it has", "%[1]s 带有污点 %[3]s；%[2]s 不容忍它，因此不在此运行 Pod，并删除已有的 Pod"},
	"why.noschedule":                 {"%[1]s has the taint %[3]s; %[2]s does not tolerate it, so it creates no pod here; one already running stays until its template changes (a rolling update deletes it and creates none)", "%[1]s 带有污点 %[3]s；%[2]s 不容忍它，因此不会在此创建 Pod；已在运行的 Pod 会保留，直到其模板变化（滚动更新会删除它，且不再创建）"},
	"why.waiting":                    {"Terminating until the node's kubelet confirms it, the node is deleted, or the node is tainted node.kubernetes.io/out-of-service (pod GC then force-deletes it): the kubelet does not answer.", "一直处于 Terminating，直到节点的 kubelet 确认、节点被删除，或节点被打上 node.kubernetes.io/out-of-service 污点（随后 Pod 垃圾收集器强制删除它）：kubelet 没有响应。"},
	"why.outofservice":               {"Terminating, and pod GC force-deletes it at its next check (every 20s): its node is not Ready and tainted node.kubernetes.io/out-of-service.", "处于 Terminating，Pod 垃圾收集器会在下一次检查时（每 20 秒一次）强制删除它：其节点未就绪且带有 node.kubernetes.io/out-of-service 污点。"},
	"why.evict":                      {"evicted in %s, at t = %s: it tolerates %s only for its tolerationSeconds", "%s 后（t = %s）被驱逐：它只在 tolerationSeconds 内容忍 %s"},
	"why.forever":                    {"stays: it tolerates %s without tolerationSeconds, so forever", "保留：它容忍 %s 且未设置 tolerationSeconds，因此永久容忍"},
	"old":                            {"old", "旧"},
	"qos":                            {"QoS class %s", "服务质量类 %s"},
	"usage":                          {"%s requested: %s of %s allocatable (%d%%)", "%s 请求量：%s，可分配 %s（%d%%）"},
	"condition":                      {"condition %s", "状况 %s"},
	"why.kubelet":                    {"evicted by the kubelet: %s", "被 kubelet 驱逐：%s"},
	"why.taint":                      {"deleted by the taint eviction controller: its node has a NoExecute taint it does not (or no longer) tolerate%.0s", "被污点驱逐控制器删除：其节点带有它不（再）容忍的 NoExecute 污点%.0s"},
	"why.preempted":                  {"preempted: the scheduler made room for a pod of higher priority%.0s", "被抢占：调度器为更高优先级的 Pod 腾出了空间%.0s"},
	"why.drained":                    {"evicted through the Eviction API, as kubectl drain does%.0s", "通过 Eviction API 被驱逐（kubectl drain 就是这样做的）%.0s"},
	"details":                        {"details", "详情"},
	"close":                          {"Close", "关闭"},
	"why":                            {"Why", "原因"},
	"open":                           {"details of %s", "%s 的详情"},
	"events":                         {"Events", "事件"},
	"lesson":                         {"lesson", "课程"},
	"lesson.sandbox":                 {"Sandbox (free play)", "沙盒（自由练习）"},
	"lesson.item":                    {"%d. %s (%d/%d)", "%d. %s（%d/%d）"},
	"lesson.title":                   {"Lesson %d · %s", "第 %d 课 · %s"},
	"lesson.step":                    {"Step %d of %d", "第 %d 步，共 %d 步"},
	"lesson.own":                     {"Your lesson · %s", "你的课程 · %s"},
	"lesson.predict":                 {"Predict first: what will happen?", "先预测：会发生什么？"},
	"lesson.right":                   {"Right.", "答对了。"},
	"lesson.revealed":                {"Revealed by Show solution.", "已通过“显示答案”揭晓。"},
	"lesson.question":                {"Question", "问题"},
	"lesson.solution":                {"Solution — nothing has run: click a line to put it in the terminal's prompt (then press Enter) or in the editor (then press Apply)", "答案——尚未运行任何命令：点击一行，把它放进终端的命令提示符（然后按 Enter）或编辑器（然后点击“应用”）"},
	"lesson.solution.prompt":         {"to the prompt", "放入命令提示符"},
	"lesson.solution.editor":         {"to the editor", "放入编辑器"},
	"lesson.hintOf":                  {"Hint (%d of %d)", "提示（第 %d 条，共 %d 条）"},
	"lesson.nextLesson":              {"Next: %s", "下一课：%s"},
	"recap.title":                    {"What you learned", "本课要点"},
	"recap.rules":                    {"Rules", "规则"},
	"recap.commands":                 {"Commands", "命令"},
	"recap.claims":                   {"The tutorials' claims, tested", "经过验证的教程说法"},
	"recap.where.000":                {"the tutorial “DaemonSet, taints and QoS” (000), §%s", "教程《DaemonSet、污点与 QoS》（000）第 %s 节"},
	"recap.where.003":                {"the tutorial “The DaemonSet controller” (003), §%s", "教程《DaemonSet 控制器》（003）第 %s 节"},
	"recap.true":                     {"true in v1.37", "在 v1.37 中成立"},
	"recap.false":                    {"false in v1.37", "在 v1.37 中不成立"},
	"recap.outdated":                 {"outdated", "已过时"},
	"reference.open":                 {"Reference: every lesson's recap", "参考：各课要点汇总"},
	"reference.openShort":            {"Reference", "参考"},
	"reference.title":                {"Reference", "参考"},
	"reference.close":                {"Close the reference", "关闭参考"},
	"reference.lesson":               {"Open the lesson", "打开这一课"},
	"challenge.title":                {"Challenge %d · %s", "挑战 %d · %s"},
	"challenge.item":                 {"%d. %s", "%d. %s"},
	"challenge.itemDone":             {"%d. %s (%s)", "%d. %s（%s）"},
	"challenge.group":                {"Challenges", "挑战"},
	"challenge.lessons":              {"Lessons", "课程"},
	"challenge.minutes":              {"Suggested time: %d min", "建议用时：%d 分钟"},
	"challenge.timer":                {"Start the timer", "开始计时"},
	"challenge.timerAgain":           {"Restart the timer", "重新计时"},
	"challenge.left":                 {"%s left", "剩余 %s"},
	"challenge.over":                 {"%s over the suggested time", "超出建议用时 %s"},
	"challenge.check":                {"Check", "检查"},
	"challenge.checking":             {"Your last check:", "上一次检查的结果："},
	"challenge.notYet":               {"Not solved yet: fix what is marked ✗ and check again.", "尚未完成：修正标记为 ✗ 的项，然后再次检查。"},
	"challenge.done":                 {"Solved!", "完成！"},
	"challenge.took":                 {"Time taken: %s.", "用时 %s。"},
	"challenge.leave":                {"Leave the challenge", "退出挑战"},
	"challenge.giveup":               {"Give up and show the solution", "放弃并显示答案"},
	"challenge.giveupConfirm":        {"Give up? Click again to see the solution", "确定放弃？再点一次显示答案"},
	"challenge.withSolution":         {"Solved with the solution.", "已借助答案完成。"},
	"challenge.solved":               {"solved", "已完成"},
	"challenge.hints":                {"solved with hints", "借助提示完成"},
	"challenge.gaveup":               {"gave up", "已放弃"},
	"challenge.result":               {"Your best: %s", "最佳成绩：%s"},
	"lesson.wrong":                   {"Not quite.", "不太对。"},
	"lesson.hint":                    {"Hint", "提示"},
	"lesson.solve":                   {"Show solution", "显示答案"},
	"lesson.goal":                    {"Goal not met yet", "目标尚未达成"},
	"lesson.predictFirst":            {"Predict first: what you run before does not count", "请先预测：预测之前运行的命令不计入"},
	"lesson.resumed":                 {"You are back in the lesson where you left it; Reset starts it over.", "你已回到离开时的课程进度；点击“重置”可从头开始。"},
	"reference.later":                {"%s — not finished yet: its recap answers its predictions", "%s——尚未完成：要点中含有本课预测的答案"},
	"lesson.met":                     {"✓ Goal met", "✓ 目标已达成"},
	"lesson.next":                    {"Next step", "下一步"},
	"lesson.done":                    {"Lesson complete!", "本课完成！"},
	"lesson.leave":                   {"Leave the lesson", "退出课程"},
	"lesson.open":                    {"Open a lesson from disk (lesson.yaml, en.yaml, zh-CN.yaml), or drop the files on the page", "从磁盘打开课程（lesson.yaml、en.yaml、zh-CN.yaml），或把文件拖放到页面上"},
	"lesson.bad":                     {"This lesson could not be opened: %s.", "无法打开此课程：%s。"},
	"lesson.openShort":               {"Open lesson…", "打开课程…"},
	"progress.saveShort":             {"Save progress", "保存进度"},
	"progress.loadShort":             {"Load progress", "载入进度"},
	"progress.save":                  {"Save your lesson progress to a file", "把课程进度保存到文件"},
	"progress.load":                  {"Load lesson progress from a file", "从文件载入课程进度"},
	"progress.done":                  {"Your lesson progress was loaded.", "课程进度已载入。"},
	"progress.bad":                   {"This progress file could not be read: %s.", "无法读取此进度文件：%s。"},
	"events.all":                     {"All types", "全部类型"},
	"events.type":                    {"event type", "事件类型"},
	"events.object":                  {"filter by object, e.g. pod/web", "按对象筛选，例如 pod/web"},
	"table":                          {"Table view", "表格视图"},
	"cards":                          {"Card view", "卡片视图"},
	"col.node":                       {"Node", "节点"},
	"col.status":                     {"Status", "状态"},
	"col.roles":                      {"Roles", "角色"},
	"col.taints":                     {"Taints", "污点"},
	"col.pods":                       {"Pods", "Pod"},
	"cell":                           {"%s: %s, %d pods", "%s：%s，%d 个 Pod"},
	"more":                           {"and %d more", "还有 %d 个"},
	"stopped.title":                  {"DaemonLab's simulator has stopped.", "DaemonLab 的模拟器已停止运行。"},
	"stopped":                        {"Most likely it ran out of memory (details are in the browser console), and nothing on this page works any more. Your session is kept as it was last saved, a moment before: Reload carries on from there.", "很可能是内存不足（详情见浏览器控制台），此页面上的操作都已不再起作用。你的会话保留在停止前不久最后一次保存时的状态：点击“重新加载”即可从那里继续。"},
	"stopped.reload":                 {"Reload", "重新加载"},
	"update":                         {"A new version of DaemonLab is ready.", "DaemonLab 的新版本已就绪。"},
	"update.reload":                  {"Reload", "重新加载"},
	"session.cut":                    {"This session was cut short: only its first %s commands were replayed, as replaying the rest would take too long. The cluster is as they left it.", "此会话被截断：只重放了前 %s 条命令，因为重放其余命令耗时过长。集群保持在这些命令执行后的状态。"},
	// The time axis (axis.go): its marks and its slider's value.
	"axis":               {"time axis", "时间轴"},
	"axis.marks":         {"what happened when", "发生了什么、在何时"},
	"axis.next":          {"t = %s, next: %s", "t = %s，下一个：%s"},
	"axis.last":          {"t = %s, last: %s", "t = %s，上一个：%s"},
	"mark.at":            {"%s %s", "%s %s"},
	"mark.more":          {"(+%d)", "（另有 %d 项）"},
	"mark.command":       {"$ %s", "$ %s"},
	"mark.node.unknown":  {"%s unreachable: Ready Unknown", "%s 不可达：Ready 为 Unknown"},
	"mark.node.notready": {"%s NotReady", "%s 变为 NotReady"},
	"mark.node.ready":    {"%s Ready", "%s 变为 Ready"},
	"mark.taint.added":   {"%s tainted %s", "%s 添加污点 %s"},
	"mark.taint.removed": {"%s untainted %s", "%s 移除污点 %s"},
	"mark.pod.created":   {"%s created", "已创建 %s"},
	"mark.pod.deleted":   {"%s deleted", "已删除 %s"},
	"mark.pod.evicted":   {"%s evicted", "已驱逐 %s"},
	"mark.pod.preempted": {"%s preempted", "%s 被抢占"},
	"mark.pod.refused":   {"%s refused by its kubelet: %s", "%s 被 kubelet 拒绝：%s"},
	"mark.rollout":       {"rollout of %s: %s", "%s 滚动更新：%s"},
	// time you can see: the clock's state, and what waits on the clock (due.go)
	"clock.state":     {"state of the clock", "时钟状态"},
	"clock.playing":   {"playing at %s", "正在以 %s 播放"},
	"clock.paused":    {"paused", "已暂停"},
	"clock.settled":   {"paused: nothing more is due", "已暂停：没有待发生的事"},
	"due.list":        {"waiting on the clock", "等待时钟的事"},
	"due.next":        {"Next: %s", "下一个：%s"},
	"due.more":        {"(and %d more)", "（另有 %d 项）"},
	"due.settled":     {"Settled: nothing waits on the clock.", "已稳定：没有事情在等待时钟。"},
	"due.go":          {"Advance %s", "前进 %s"},
	"due.start":       {"starts in %s", "%s 后启动"},
	"due.gone":        {"gone in %s: its containers exit on SIGTERM, within its grace period", "%s 后消失：其容器收到 SIGTERM 后在宽限期内退出"},
	"due.restart":     {"restarts its container in %s (CrashLoopBackOff back-off)", "%s 后重启容器（CrashLoopBackOff 回退）"},
	"due.reject":      {"rejected by its kubelet in %s: the node is under pressure", "%s 后被 kubelet 拒绝：节点处于压力之下"},
	"due.evict":       {"evicted in %s: its tolerationSeconds run out", "%s 后被驱逐：其 tolerationSeconds 到期"},
	"due.evictloop":   {"checks memory in %s (the kubelet's eviction manager)", "%s 后检查内存（kubelet 的驱逐管理器）"},
	"due.report":      {"posts its status in %s (the kubelet's status update)", "%s 后上报节点状态（kubelet 的状态更新）"},
	"due.unknown":     {"turns Unknown in %s: the node lifecycle controller, checking every %v (node-monitor-period), finds its kubelet silent for longer than node-monitor-grace-period (%v)", "%s 后变为 Unknown：节点生命周期控制器每 %v 检查一次（node-monitor-period），发现其 kubelet 沉默超过 node-monitor-grace-period（%v）"},
	"due.controllers": {"the controllers act again in %s", "%s 后控制器再次行动"},

	// Controls that say their state, and the page's look (issue 21, "look"): the node menu's
	// recover items and faults, the Session menu, the editor's keys, Share's Copy, the legend.
	"recover.kubelet-down":        {"Restart the kubelet", "重启 kubelet"},
	"recover.not-ready":           {"Report Ready again", "恢复报告 Ready"},
	"recover.memory-pressure":     {"End the memory pressure", "解除内存压力"},
	"recover.disk-pressure":       {"End the disk pressure", "解除磁盘压力"},
	"recover.pid-pressure":        {"End the PID pressure", "解除 PID 压力"},
	"recover.network-unavailable": {"Bring the network back", "恢复网络"},
	"recover.all":                 {"Recover from every fault (%s)", "从所有故障中恢复（%s）"},
	"fault":                       {"fault %s, injected with sim fail: the node menu recovers from it", "故障 %s（由 sim fail 注入）：可在节点菜单中恢复"},
	"node.actions.faults":         {"actions for node %s; faults: %s", "节点 %s 的操作；故障：%s"},
	"session.menu":                {"Session", "会话"},
	"session.menu.label":          {"session and files: export, save, open, import, lessons and progress", "会话与文件：导出、保存、打开、导入、课程与进度"},
	"share.short":                 {"Share", "分享"},
	"copy":                        {"Copy", "复制"},
	"copied":                      {"Copied", "已复制"},
	"copy.label":                  {"copy the share link", "复制分享链接"},
	"copy.select":                 {"Selected: press Ctrl/⌘ + C", "已选中：请按 Ctrl/⌘ + C"},
	"editor.keys":                 {"Tab indents · Esc, then Tab, leaves the editor", "Tab 缩进 · 先按 Esc 再按 Tab 离开编辑器"},
	"legend":                      {"Legend", "图例"},
	"legend.owner":                {"left border: the pod's owner, a colour per DaemonSet or Deployment", "左边框：Pod 的属主，每个 DaemonSet 或 Deployment 一种颜色"},
	"legend.terminating":          {"dashed border: Terminating", "虚线边框：Terminating（正在终止）"},
	"legend.old":                  {"rev · old: the pod runs an older revision of its template", "rev · 旧：该 Pod 运行的是模板的旧修订版本"},
	"legend.qos":                  {"QoS class, from requests and limits: it sets the OOM score (BestEffort killed first, Guaranteed last); eviction ranks by memory use above requests, then priority", "服务质量类由 requests 和 limits 决定：它决定 OOM 分数（BestEffort 最先被杀死，Guaranteed 最后）；驱逐则按超出 requests 的内存用量、再按优先级排序"},
	"legend.taint":                {"taint on the node", "节点上的污点"},
	"legend.condition":            {"condition not as a healthy node reports it", "与健康节点不同的状况"},
	"legend.fault":                {"fault injected with sim fail", "由 sim fail 注入的故障"},
	// the cluster always in view (issue 21, layout): the phone's panes, the terminal's drawer,
	// the notes of buttons that run no command
	"panes":         {"what to show", "显示内容"},
	"pane.lesson":   {"Lesson", "课程"},
	"drawer.handle": {"terminal height: drag, or use the arrow keys; Enter folds it", "终端高度：拖动或使用方向键调整；按 Enter 折叠"},
	"drawer.value":  {"%d%% of the window", "窗口的 %d%%"},
	"drawer.folded": {"folded", "已折叠"},
	"drawer.fold":   {"Fold", "折叠"},
	"drawer.unfold": {"Unfold", "展开"},
	"note.play":     {"▶ Play at %s: %s, four times a second", "▶ 以 %s 播放：每秒 4 次 %s"},
	"note.pause":    {"❚❚ Pause at t = %s", "❚❚ 暂停于 t = %s"},
	"note.undo":     {"Undo: back to step %d of %d", "撤消：回到第 %d 步，共 %d 步"},
	"note.redo":     {"Redo: on to step %d of %d", "重做：前进到第 %d 步，共 %d 步"},
	"note.reset":    {"Reset: the cluster is back at its start", "重置：集群已回到初始状态"},
	"note.cluster":  {"Starting cluster: %s", "初始集群：%s"},
	"note.lesson":   {"%s: the cluster is now the lesson's starting cluster", "%s：集群已换成本课的初始集群"},

	// Every change explained (issue 21): the terminal's explanation after a write (explain.go),
	// the editor's warnings before Apply (lint.go) and the node cards' ghosts (why.go).
	"explain.created":               {"%s created: revision %s", "%s 已创建：修订版本 %s"},
	"explain.created.ds":            {"; it wants a pod on %d of %d nodes (a node it skips says why on its card)", "；它要在 %d 个节点（共 %d 个）上运行 Pod（被跳过的节点在其卡片上说明原因）"},
	"explain.created.deploy":        {"; %d replicas", "；%d 个副本"},
	"explain.template":              {"%s configured: its Pod template changed:", "%s 已配置：其 Pod 模板发生了变化："},
	"explain.unset":                 {"(unset)", "（未设置）"},
	"explain.operator":              {"(an unset operator is Equal: with no value it matches only a taint whose value is empty, where Exists matches any value; either way it is another toleration, so another template)", "（未设置的 operator 即 Equal：不设 value 时它只匹配 value 为空的污点，而 Exists 匹配任何 value；无论如何它都是另一个容忍度，因此是另一个模板）"},
	"explain.more":                  {"  … and %d more changes", "  ……另有 %d 处变化"},
	"explain.ds.skipped":            {"; on %s, which it does not want (the node's card says why), an old pod is deleted and none is created", "；在它不需要的 %s 上（节点卡片说明原因），旧 Pod 会被删除，且不再创建新的"},
	"explain.ds.rolling":            {"revision %s is rolling out to %d nodes under RollingUpdate (maxUnavailable=%d, maxSurge=%d): node by node, each old pod is deleted before its replacement is created", "修订版本 %s 正以 RollingUpdate 策略滚动更新到 %d 个节点（maxUnavailable=%d，maxSurge=%d）：逐个节点进行，每个旧 Pod 先被删除，再创建替代它的新 Pod"},
	"explain.ds.surge":              {"revision %s is rolling out to %d nodes under RollingUpdate (maxUnavailable=%d, maxSurge=%d): each new pod starts beside the old one, which goes once the new one is available", "修订版本 %s 正以 RollingUpdate 策略滚动更新到 %d 个节点（maxUnavailable=%d，maxSurge=%d）：每个新 Pod 在旧 Pod 旁边启动，新 Pod 可用后旧 Pod 才被删除"},
	"explain.ondelete":              {"revision %s is recorded, but under OnDelete nothing rolls out: each pod you delete comes back from it", "修订版本 %s 已记录，但在 OnDelete 策略下不会自动上线：你删除的每个 Pod 会按新版本重建"},
	"explain.deploy.rolling":        {"revision %s is rolling out to %d replicas under RollingUpdate (maxSurge=%d, maxUnavailable=%d): the new ReplicaSet scales up and the old ones down within those bounds", "修订版本 %s 正以 RollingUpdate 策略滚动更新到 %d 个副本（maxSurge=%d，maxUnavailable=%d）：新 ReplicaSet 在此范围内扩容，旧的缩容"},
	"explain.recreate":              {"it rolls out under Recreate: every old pod is deleted before the %d new ones are created, in a new ReplicaSet (the next revision)", "它以 Recreate 策略上线：先删除所有旧 Pod，再在新的 ReplicaSet（下一个修订版本）中创建 %d 个新 Pod"},
	"explain.spec":                  {"%s configured: its spec changed but not its Pod template, so revision %s stays and no pod is replaced", "%s 已配置：其规约变了，但 Pod 模板没变，因此修订版本 %s 不变，不替换任何 Pod"},
	"explain.meta":                  {"%s configured: only its labels or annotations changed, not its spec, so revision %s stays and no pod is replaced", "%s 已配置：只有其标签或注解变了，规约没变，所以修订版本 %s 保持不变，不替换任何 Pod"},
	"explain.unchanged":             {"%s unchanged: same Pod template, revision %s, nothing to roll out", "%s 未变化：Pod 模板相同，修订版本 %s，无需上线"},
	"explain.deleted":               {"%s deleted: the garbage collector deletes its pods (their ownerReferences name it)", "%s 已删除：垃圾收集器会删除它的 Pod（它们的 ownerReferences 指向它）"},
	"lint.toleration":               {"No node has a taint this toleration matches (key %s): it changes nothing", "没有节点带有与此容忍度匹配的污点（键名 %s）：它不起任何作用"},
	"lint.toleration.retired":       {"No node has the taint %s: this toleration matches nothing. Control-plane nodes are tainted %s since Kubernetes v1.25; tolerate that key instead", "没有节点带有污点 %s：此容忍度匹配不到任何污点。自 Kubernetes v1.25 起，控制平面节点的污点是 %s；请改为容忍该键名"},
	"lint.toleration.retired.nodes": {"No node has the taint %s: this toleration matches nothing. Control-plane nodes are tainted %s since Kubernetes v1.25, so no pod of this manifest runs on %s; tolerate that key instead", "没有节点带有污点 %s：此容忍度匹配不到任何污点。自 Kubernetes v1.25 起，控制平面节点的污点是 %s，因此此清单的 Pod 不会在 %s 上运行；请改为容忍该键名"},
	"lint.affinity":                 {"None of the %d nodes matches its nodeSelector or required node affinity: no node gets its pod (a DaemonSet creates none, other pods stay Pending)", "%d 个节点都不满足其 nodeSelector 或硬性要求的节点亲和性：没有节点会运行它的 Pod（DaemonSet 不会创建 Pod，其他 Pod 保持 Pending）"},
	"lint.requests":                 {"Its requests are more than any of the %d nodes can allocate (%s): its pods stay Pending, and preempting other pods cannot make room", "其资源请求超过了 %d 个节点中任何一个的可分配量（%s）：它的 Pod 会保持 Pending，抢占其他 Pod 也腾不出空间"},
	"lint.selector":                 {"Its selector also matches pods of %s: Kubernetes lets selectors overlap, and each controller keeps to the pods it owns (ownerReferences), but whatever selects by label (kubectl get -l, Services, PodDisruptionBudgets) sees them all", "其选择算符也匹配 %s 的 Pod：Kubernetes 允许选择算符重叠，每个控制器只管理自己的 Pod（ownerReferences），但按标签选择的一切（kubectl get -l、Service、PodDisruptionBudget）都会看到全部 Pod"},
	"lint.surge.hostport":           {"Its pods take host ports (%s) and it rolls out with maxSurge: on each node the old pod holds them, so the new pod cannot start beside it (NodePorts: \"didn't have free ports\") and the rollout stalls, the new pod Pending, until the old one is deleted or is not Ready; roll out with maxUnavailable instead", "它的 Pod 占用主机端口（%s），且以 maxSurge 滚动更新：在每个节点上旧 Pod 占着这些端口，新 Pod 无法在它旁边启动（NodePorts：\"didn't have free ports\"），因此上线会停滞，新 Pod 保持 Pending，直到旧 Pod 被删除或未就绪；请改用 maxUnavailable 滚动更新"},
	"lints.title":                   {"What Kubernetes will do with this manifest", "Kubernetes 将如何处理此清单"},
	"ghost":                         {"not here", "不在此处"},

	// The why-panel's scheduling (issue 24 item 7, placement.go): each node's filter verdict and
	// each plugin's score. Plugin names and kube-scheduler's reasons stay as upstream prints them.
	"place.title":      {"How the scheduler places it", "调度器如何放置它"},
	"place.title.node": {"How it came to its node", "它如何到了这个节点"},
	"place.pending":    {"The scheduler's next attempt to place this pod, node by node.", "调度器下一次尝试放置此 Pod 的过程，逐个节点列出。"},
	"place.bound":      {"Why %s: the scheduler's choice, computed against the cluster as it is now (without this pod), so it may differ from when the pod was bound.", "为什么是 %s：按集群当前的状态（不含此 Pod）重新计算的调度器选择，因此可能与绑定此 Pod 时不同。"},
	"place.daemon":     {"Its DaemonSet pins it to %s (required node affinity on metadata.name): the scheduler chooses among no other node, and only checks that this one passes the filters.", "它的 DaemonSet 把它固定在 %s 上（基于 metadata.name 的硬性节点亲和性）：调度器不在其他节点中挑选，只检查这个节点能否通过过滤。"},
	"place.pinned":     {"Its required node affinity names %s (metadata.name): the scheduler considers no other node.", "它的硬性节点亲和性指定了 %s（metadata.name）：调度器不考虑其他节点。"},
	"place.now":        {"Checked against the cluster as it is now.", "按集群当前的状态检查。"},
	"place.unknown":    {"Its Scheduled event has expired (events last an hour), so whether the scheduler chose its node or spec.nodeName was set when it was created is no longer on record.", "它的 Scheduled 事件已过期（事件只保留一小时），因此已无从得知它的节点是调度器选的，还是创建时就设置了 spec.nodeName。"},
	"place.nodename":   {"Its spec.nodeName named %[1]s when it was created: no scheduler chose among the nodes. The kubelet on %[1]s still checks that it can run the pod (resources, host ports, nodeSelector and node affinity, NoExecute taints; NoSchedule taints are only the scheduler's) and fails it at once if not.", "它创建时的 spec.nodeName 就指定了 %[1]s：没有调度器在节点之间挑选。%[1]s 上的 kubelet 仍会检查能否运行这个 Pod（资源、主机端口、nodeSelector 与节点亲和性、NoExecute 污点；NoSchedule 污点只由调度器考虑），不能运行就立即让它失败。"},
	"place.refused":    {"The kubelet on %s refused it: %s — %s. A refused pod is not retried: it stays Failed, and its controller, if it has one, makes a new pod.", "%s 上的 kubelet 拒绝了它：%s —— %s。被拒绝的 Pod 不会重试：它保持 Failed，若有控制器，控制器会创建新的 Pod。"},
	"place.static":     {"A static pod: the kubelet on %s runs it from a manifest file on the node, and the API server shows its mirror; no scheduler chose its node.", "静态 Pod：%s 上的 kubelet 根据节点上的清单文件运行它，API 服务器中显示的是它的镜像 Pod（mirror Pod）；它的节点不是调度器选的。"},
	"place.other":      {"Its schedulerName is %s, not default-scheduler: the default scheduler leaves it alone, and DaemonLab runs no other scheduler, so it stays Pending.", "它的 schedulerName 是 %s，而不是 default-scheduler：默认调度器不会处理它，而 DaemonLab 不运行其他调度器，因此它保持 Pending。"},
	"place.filter":     {"Filter: can the pod go on this node at all? Each filter plugin checks one rule, and the first that fails rules the node out.", "过滤：Pod 能不能放到这个节点上？每个过滤插件检查一条规则，第一个不通过的插件就排除该节点。"},
	"place.score":      {"Score: where is it best? Each score plugin rates every node that passed, from 0 to 100.", "打分：放到哪里最好？每个打分插件给每个通过过滤的节点打 0 到 100 分。"},
	"place.total":      {"Total: each score times its plugin's weight (×), summed; the highest total wins, and a tie is drawn at random.", "总分：每项得分乘以其插件的权重（×）后相加；总分最高的节点胜出，并列时随机选一个。"},
	"place.none":       {"No node passes every filter: the pod stays Pending.", "没有节点通过全部过滤：Pod 保持 Pending。"},
	"place.none.bound": {"No node would pass every filter now; the pod keeps running where it is, as filters are checked only when a pod is scheduled.", "现在没有节点能通过全部过滤；Pod 仍在原处运行，因为过滤只在调度 Pod 时检查。"},
	"place.one":        {"Only %s passes: the scheduler takes it without scoring.", "只有 %s 通过过滤：调度器不打分，直接选它。"},
	"place.tie":        {"%s tie for the highest total: the scheduler draws one of them at random.", "%s 的总分并列最高：调度器从中随机选一个。"},
	"place.passes":     {"✓ passes", "✓ 通过"},
	"place.best":       {"★ best", "★ 最佳"},
	"place.here":       {"runs here", "当前所在"},
	"place.one.bound":  {"Now only %s would pass: the scheduler would take it without scoring.", "现在只有 %s 能通过过滤：调度器会不打分，直接选它。"},
	"place.tie.bound":  {"Now %s would tie for the highest total: the scheduler would draw one of them at random.", "现在 %s 的总分会并列最高：调度器会从中随机选一个。"},
	"place.scores":     {"What each score measures", "每项得分衡量什么"},
	// What on the node made its filter fail (scheduler.Culprits).
	"cause.taint":    {"its taint %s, which the pod does not tolerate", "其污点 %s，Pod 不容忍它"},
	"cause.port":     {"%s holds %s", "%s 占用了 %s"},
	"cause.anti":     {"%[1]s%[3]s runs on %[2]s", "%[2]s 上运行着 %[1]s%[3]s"},
	"cause.existing": {"existing pods' anti-affinity: %s on %s selects this pod%s", "已有 Pod 的反亲和性：%s（在 %s 上）选中了此 Pod%s"},
	"cause.labels":   {" (%s)", "（%s）"},
	// What each score plugin scores (core/scheduler: nodeplugins.go, resources.go,
	// podtopologyspread.go, interpodaffinity.go).
	"score.TaintToleration":                 {"Fewer untolerated PreferNoSchedule taints on the node score higher: none scores 100.", "节点上 Pod 不容忍的 PreferNoSchedule 污点越少，得分越高：没有则得 100。"},
	"score.NodeAffinity":                    {"The weights of the pod's preferred node affinity terms the node matches, summed; the highest sum scores 100.", "节点满足的 Pod 偏好节点亲和性条件的权重之和；和最高的节点得 100。"},
	"score.NodeResourcesFit":                {"LeastAllocated: the share of the node's cpu and memory still free once the pod is on it, averaged; a container with no requests counts as 100m cpu and 200Mi memory.", "LeastAllocated：放入此 Pod 后节点仍空闲的 CPU 和内存比例的平均值；未设置请求的容器按 100m CPU 和 200Mi 内存计。"},
	"score.PodTopologySpread":               {"Fewer pods matching its topologySpreadConstraints in the node's domains (its hostname, its zone…) score higher.", "节点所在拓扑域（主机名、可用区…）中匹配其 topologySpreadConstraints 的 Pod 越少，得分越高。"},
	"score.PodTopologySpread.default":       {"The pod has no topologySpreadConstraints: these are kube-scheduler's default ones, which spread the pods of its Service or ReplicaSet; fewer of them in the node's hostname and zone domains score higher.", "此 Pod 没有 topologySpreadConstraints：这里用的是 kube-scheduler 的默认约束，用于分散其 Service 或 ReplicaSet 的 Pod；节点的主机名和可用区拓扑域中这些 Pod 越少，得分越高。"},
	"score.InterPodAffinity":                {"Preferred pod affinity (+weight) and anti-affinity (−weight) toward the pods in the node's domain, and the existing pods' terms that select this pod; the lowest node scores 0, the highest 100. The pod's required terms only filter.", "对节点所在拓扑域中 Pod 的偏好 Pod 亲和性（+权重）和反亲和性（−权重），加上已有 Pod 选中此 Pod 的条件；最低的节点得 0，最高的得 100。此 Pod 的硬性要求只用于过滤。"},
	"score.NodeResourcesBalancedAllocation": {"How evenly the node's cpu and memory are requested with the pod, against without it (requests as they are): 75 when the pod leaves the balance as it was, up to 100 when it evens them, down to 50 when it skews them.", "比较放入此 Pod 前后节点 CPU 与内存请求比例的均衡程度（按实际请求计）：均衡不变得 75，更均衡时最高 100，更失衡时最低 50。"},
	"col.filter":                            {"Filter", "过滤"},
	"col.total":                             {"Total", "总分"},

	// Embedding (issue 23): embed.html's address, "Embed this", a lesson opened from disk shared.
	"share.lesson": {"This link holds your lesson, its three files and none of your own work in it: copy it (it is selected), and whoever opens it takes the lesson from its first step. Nothing is sent to any server.", "此链接包含你的课程（它的三个文件，不含你自己的操作）：复制它（已选中），打开它的人会从第一步开始学习这门课程。不会向任何服务器发送数据。"},
	"link.long":    {"This link is longer than %s KB, so it was not opened. Your own work is still here.", "此链接超过 %s KB，因此没有打开。你自己的工作仍保留在这里。"},
	"embed.open":   {"Open in DaemonLab ↗", "在 DaemonLab 中打开 ↗"},
	"embed.opens":  {"Open this session in the full DaemonLab, in a new tab", "在新标签页中用完整的 DaemonLab 打开此会话"},
	"embed.short":  {"Embed this", "嵌入此页"},
	"embed.title":  {"Embed this lesson or session in your own page: the <iframe> code to paste", "把此课程或会话嵌入你自己的网页：复制要粘贴的 <iframe> 代码"},
	"embed.code":   {"code to embed", "嵌入代码"},
	"embed.done":   {"Paste this into your page: a live playground as wide as its column and %s px tall until it says its own height, which the script below the frame applies. Add &editor=1 to the address to show the YAML editor. Nothing is sent to any server.", "把下面的代码粘贴到你的网页中：一个实时的演练场，宽度与所在栏相同，高度先为 %s 像素，之后由框架报告自身高度，框架下方的脚本会应用它。在地址后加上 &editor=1 可显示 YAML 编辑器。不会向任何服务器发送数据。"},
	"embed.param":  {"This embedded playground's address has a parameter DaemonLab does not know (%s), so it opened the sandbox.", "此嵌入式演练场的地址含有 DaemonLab 不认识的参数（%s），因此打开的是沙箱。"},
	"embed.twice":  {"This embedded playground's address gives the parameter %s twice, so it opened the sandbox.", "此嵌入式演练场的地址两次给出参数 %s，因此打开的是沙箱。"},
	"embed.links":  {"This embedded playground's address names two lessons or sessions, so it opened the sandbox.", "此嵌入式演练场的地址指定了两个课程或会话，因此打开的是沙箱。"},
	"embed.value":  {"This embedded playground's address has a value DaemonLab does not read (%s: lang is en or zh-CN, editor is 0 or 1), so it opened the sandbox.", "此嵌入式演练场的地址含有 DaemonLab 无法识别的值（%s：lang 为 en 或 zh-CN，editor 为 0 或 1），因此打开的是沙箱。"},
}

// reasonGlosses are the Chinese glosses of kube-scheduler's filter reasons (core/scheduler),
// shown under the reason as it prints it; "Insufficient <resource>" is glossed by its resource.
// English needs none, and a reason not listed stays English only.
var (
	reasonGlosses = map[string]string{
		"node(s) had untolerated taint(s)":                           "节点有 Pod 不容忍的污点",
		"node(s) were unschedulable":                                 "节点被标记为不可调度",
		"node(s) didn't match Pod's node affinity/selector":          "节点不满足 Pod 的节点亲和性或 nodeSelector",
		"node(s) didn't satisfy plugin(s) [NodeAffinity]":            "节点不在 NodeAffinity 预过滤选定的节点之中",
		"node(s) didn't have free ports for the requested pod ports": "节点上没有 Pod 所请求的空闲主机端口",
		"Too many pods": "节点上的 Pod 数已达上限",
		"node(s) didn't match pod affinity rules":                                       "节点不满足 Pod 亲和性规则",
		"node(s) didn't match pod anti-affinity rules":                                  "节点不满足 Pod 反亲和性规则",
		"node(s) didn't satisfy existing pods anti-affinity rules":                      "节点不满足已有 Pod 的反亲和性规则",
		"node(s) didn't match pod topology spread constraints":                          "节点不满足 Pod 拓扑分布约束",
		"node(s) didn't match pod topology spread constraints (missing required label)": "节点不满足 Pod 拓扑分布约束（缺少所需的标签）",
	}
	insufficientGloss = " 不足" // after the resource of "Insufficient <resource>"
)

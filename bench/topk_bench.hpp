#pragma once
// `gpusort-bench topk`: the k largest of each row (issue 53's shapes), gpusort beside CUB's top-k and
// one read of the keys. argv[0] is "topk"; returns the exit status (0, 1 a wrong result, 2 usage).
namespace bench {
int topk_main(int argc, char** argv);
}

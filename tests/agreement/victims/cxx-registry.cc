/*
 * cxx-registry.cc - a realistic C++ leak, built at -O1 too: main makes a
 * registry (new), fills its std::map with 100 nodes (new), reads them,
 * and drops the registry's pointer without deleting anything. Nothing is
 * wiped: the optimized code leaves what it leaves in registers and dead
 * frames. The registry is lost, and below it the map's 100 tree nodes (48
 * bytes each) and the 100 nodes (80 bytes each). valgrind 3.19 says
 * exactly that of this program, at -O0, -O1 and -O2: "48 bytes definitely
 * lost in 1 block, 12,800 indirectly lost in 200 blocks". The structure of
 * the issue's own example (48 bytes definitely, 12,780 indirectly lost).
 *
 * A correct checker: definitely lost 48 bytes in 1 block, indirectly lost
 * 12,800 in 200; exit status 23.
 *
 * OPTS: O0 O1 O2
 * EXPECT: definitely-lost 48 1; indirectly-lost 12800 200; rc 23
 */
#include <cstdio>
#include <map>

struct Node {
	char payload[80];
};

struct Registry {
	std::map<int, Node *> nodes;
};

int main()
{
	Registry *reg = new Registry;
	for (int i = 0; i < 100; i++)
		reg->nodes[i] = new Node();
	long sum = 0;
	for (auto &kv : reg->nodes)
		sum += kv.second->payload[0] + kv.first;
	std::printf("%zu nodes, %ld\n", reg->nodes.size(), sum);
	reg = nullptr;
	return sum != 4950;
}

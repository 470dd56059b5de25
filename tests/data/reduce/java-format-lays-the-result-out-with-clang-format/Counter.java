// A static method called through an instance, which javac -Xlint:static
// reports; the rest is laid out by hand, badly.
class Counter {
    static int total;
    static int   next() {   return ++total; }
    int id  =  0;

    public static void main(String[] args) {
        Counter c = new Counter();
        int   n =   c.next();
        System.out.println(n + c.id);
    }
}

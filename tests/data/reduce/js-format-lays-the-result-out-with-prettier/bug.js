// node prints NaN for 0/0; prettier lays out what is left
function   compute(first,second){
    var unused = first + 1;
        return first/second
}
var   values = [0,   0];
console.log(  compute(values[0],values[1])  );
